import Foundation
@_implementationOnly import KeychainCore

/// How an access control is stored among an item's attributes: its protection as `pdmn`, as
/// `kSecAttrAccessible` would be, and its flags as the number `accc`. One mapping for adds,
/// searches, updates and key creation, and back for returned attributes.
enum AccessControlAttributes {
    static let code = kSecAttrAccessControl as String
    static let accessibleCode = kSecAttrAccessible as String

    /// Puts the access control given as `value` into `attributes`: errSecParam for anything
    /// but a ``SecAccessControl``, or beside a `kSecAttrAccessible` of its own (the two say the
    /// same thing, and Apple refuses them together).
    static func apply(_ value: Any, to attributes: inout [String: AttributeValue]) throws(KeychainError) {
        guard let accessControl = value as? SecAccessControl else {
            throw .param("kSecAttrAccessControl takes a SecAccessControl")
        }
        if attributes[accessibleCode] != nil {
            throw .param("kSecAttrAccessControl and kSecAttrAccessible cannot be given together")
        }
        attributes[accessibleCode] = .string(accessControl.protection)
        attributes[code] = .number(Int64(bitPattern: UInt64(accessControl.flags.rawValue)))
    }

    /// Whether `attributes` name a protection of their own beside an access control, which
    /// ``apply(_:to:)`` cannot see when the `kSecAttrAccessible` entry comes after it.
    static func checkNotBoth(_ keys: [String]) throws(KeychainError) {
        try checkNotBoth(namesAccessControl: keys.contains(code), namesAccessible: keys.contains(accessibleCode))
    }

    /// ``checkNotBoth(_:)`` for a parser that noted which of the two keys it met.
    static func checkNotBoth(namesAccessControl: Bool, namesAccessible: Bool) throws(KeychainError) {
        if namesAccessControl && namesAccessible {
            throw .param("kSecAttrAccessControl and kSecAttrAccessible cannot be given together")
        }
    }

    /// Whether attributes hold an access control with `.applicationPassword`.
    static func requiresApplicationPassword(_ attributes: [String: AttributeValue]) -> Bool {
        guard case .number(let raw)? = attributes[code] else { return false }
        return SecAccessControlCreateFlags(rawValue: CFOptionFlags(UInt64(bitPattern: raw))).contains(.applicationPassword)
    }

    /// The access control of a stored item, or nil when it was stored without one.
    static func accessControl(of record: ItemRecord) -> SecAccessControl? {
        guard case .number(let raw)? = record.attributes[code] else { return nil }
        return SecAccessControl(protection: record.accessibility.rawValue,
                                flags: SecAccessControlCreateFlags(rawValue: CFOptionFlags(UInt64(bitPattern: raw))))
    }
}
