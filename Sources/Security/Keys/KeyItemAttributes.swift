import Foundation
@_implementationOnly import KeychainCore

extension SecKey {
    /// The attributes Apple derives for a key added by reference (SecKey.c,
    /// SecKeyCopyAttributeDictionaryWithLocalKey): class, label, type, sizes, and the usage
    /// flags of a private key (decrypt, derive, sign, unwrap) or a public one (encrypt,
    /// derive, verify, wrap).
    ///
    /// A Secure Enclave-style key adds its token, is sensitive and not extractable, and is
    /// bound to this machine (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`) unless the
    /// caller names another protection.
    var itemAttributes: [String: AttributeValue] {
        var attributes = identifyingItemAttributes
        attributes["perm"] = .bool(true)
        attributes["sens"] = .bool(!isExportable)
        attributes["extr"] = .bool(isExportable)
        for flag in material.usageFlags {
            attributes[flag.code as String] = .bool(flag.allowed)
        }
        if !isExportable {
            attributes[kSecAttrTokenID as String] = .string(kSecAttrTokenIDSecureEnclave as String)
            attributes[kSecAttrAccessible as String] = .string(SecureEnclaveKeyGeneration.defaultProtection)
        }
        return attributes
    }

    /// The attributes that tell this key's item from others: what a query naming the key
    /// by `kSecValueRef` matches on.
    var identifyingItemAttributes: [String: AttributeValue] {
        let type = material.family == .rsa ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom
        return [
            "kcls": .number(material.isPrivate ? 1 : 0),
            // The application label Apple gives a key item: the public-key hash, the bytes
            // a certificate holding the key has as its own public-key hash.
            "klbl": .data(material.publicKeyHash),
            "type": .number(Int64(type as String) ?? 0),
            "bsiz": .number(Int64(material.bitCount)),
            "esiz": .number(Int64(material.bitCount)),
        ]
    }

    /// Makes the key a stored item holds: its external representation with the class, type
    /// and size its attributes record. nil for what is not such a key (a symmetric key, or
    /// data that is not a key). A Secure Enclave-style key (its data behind
    /// ``SecureEnclaveKeyData``'s marker) keeps the item's access control, and asks for the
    /// user as `authentication` (the options of the search that found it) says; it is made
    /// from a ThisDeviceOnly item only.
    static func fromItem(_ record: ItemRecord, data stored: Data,
                         authentication: AuthenticationOptions = AuthenticationOptions()) -> SecKey? {
        let attributes = record.attributes
        func integer(_ code: String) -> Int64? {
            switch attributes[code] {
            case .number(let number)?: number
            case .bool(let flag)?: flag ? 1 : 0
            case .string(let string)?: Int64(string)
            default: nil
            }
        }
        let family: KeyMaterial.Family
        switch integer("type") {
        case Int64(kSecAttrKeyTypeECSECPrimeRandom as String): family = .ellipticCurve
        case Int64(kSecAttrKeyTypeRSA as String): family = .rsa
        default: return nil
        }
        let isPrivate: Bool
        // An absent key class is 0, kSecAttrKeyClassPublic, as for every numeric field of a
        // key's identity: Heimdall adds a public key's data with its type and tag only.
        switch integer("kcls") ?? 0 {
        case 0: isPrivate = false
        case 1: isPrivate = true
        default: return nil
        }
        let isEnclaveData = SecureEnclaveKeyData.isKeyData(stored)
        guard let material = isEnclaveData
                ? SecureEnclaveKeyData.material(in: stored, family: family, isPrivate: isPrivate)
                : try? KeyMaterial(externalRepresentation: stored, family: family, isPrivate: isPrivate)
        else { return nil }
        guard isEnclaveData, material.isPrivate else {
            // A software private key whose access control needs the user asks when it is used.
            guard material.isPrivate, let accessControl = AccessControlAttributes.accessControl(of: record),
                  accessControl.requiresUserPresence else { return SecKey(material: material) }
            return SecKey(material: material, accessGuard: KeyUseBinding(accessControl: accessControl, authentication: authentication))
        }
        // Such a key is only ever this machine's: one in an item of a migrating class (brought
        // by an archive from elsewhere) is no key.
        guard record.accessibility.isThisDeviceOnly else { return nil }
        return SecKey(material: material, secureEnclave: KeyUseBinding(
            accessControl: AccessControlAttributes.accessControl(of: record), authentication: authentication))
    }
}
