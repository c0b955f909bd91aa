import Foundation
@_implementationOnly import KeychainCore

extension SecKey {
    /// The attributes Apple derives for a key added by reference (SecKey.c,
    /// SecKeyCopyAttributeDictionaryWithLocalKey): class, label, type, sizes, and the usage
    /// flags of a private key (decrypt, derive, sign, unwrap) or a public one (encrypt,
    /// derive, verify, wrap).
    var itemAttributes: [String: AttributeValue] {
        var attributes = identifyingItemAttributes
        attributes["perm"] = .bool(true)
        attributes["sens"] = .bool(false)
        attributes["extr"] = .bool(true)
        for flag in material.usageFlags {
            attributes[flag.code as String] = .bool(flag.allowed)
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
    /// data that is not a key).
    static func fromItem(attributes: [String: AttributeValue], data: Data) -> SecKey? {
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
        switch integer("kcls") {
        case 0: isPrivate = false
        case 1: isPrivate = true
        default: return nil
        }
        guard let material = try? KeyMaterial(externalRepresentation: data, family: family,
                                              isPrivate: isPrivate) else { return nil }
        return SecKey(material: material)
    }
}
