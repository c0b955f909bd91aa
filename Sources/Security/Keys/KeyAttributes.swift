import Foundation

/// The key description in a SecKey call's attribute dictionary: `kSecAttrKeyType`,
/// `kSecAttrKeyClass` and `kSecAttrKeySizeInBits`, each given as a string (Apple's constants)
/// or a number, as Apple accepts them. Missing values are nil; the caller decides which are
/// required.
struct KeyAttributes {
    var family: KeyMaterial.Family?
    var isPrivate: Bool?
    var bitCount: Int?

    init(_ dictionary: CFDictionary) throws(KeyFailure) {
        let values = dictionary as? [String: Any] ?? [:]
        if let type = values[kSecAttrKeyType as String] {
            let code = Self.code(type)
            if code == kSecAttrKeyTypeECSECPrimeRandom as String {
                family = .ellipticCurve
            } else if code == kSecAttrKeyTypeRSA as String {
                family = .rsa
            } else {
                throw KeyFailure(.param, "kSecAttrKeyType is not a supported key type")
            }
        }
        if let keyClass = values[kSecAttrKeyClass as String] {
            let code = Self.code(keyClass)
            if code == kSecAttrKeyClassPrivate as String {
                isPrivate = true
            } else if code == kSecAttrKeyClassPublic as String {
                isPrivate = false
            } else {
                throw KeyFailure(.param, "kSecAttrKeyClass is not public or private")
            }
        }
        if let size = values[kSecAttrKeySizeInBits as String] {
            guard let bits = Self.integer(size) else {
                throw KeyFailure(.param, "kSecAttrKeySizeInBits is not a whole number")
            }
            bitCount = bits
        }
    }

    /// A constant given as its string or as a number (`73`, `"73"`).
    private static func code(_ value: Any) -> String? {
        if let string = FoundationValues.string(value) { return string }
        if let number = value as? NSNumber, !FoundationValues.isBoolean(value) { return number.stringValue }
        return nil
    }

    /// A whole number given as a number or as its decimal string.
    static func integer(_ value: Any) -> Int? {
        if let string = FoundationValues.string(value) { return Int(string) }
        if let number = value as? NSNumber, !FoundationValues.isBoolean(value),
           Double(number.intValue) == number.doubleValue { return number.intValue }
        return nil
    }
}
