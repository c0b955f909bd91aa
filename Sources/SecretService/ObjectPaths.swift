import Foundation

/// What an object path of the provider names.
///
/// Items are named by their keychain persistent reference in lowercase hex, which is made
/// of valid path characters and stays the same for the item's life, whatever changes in it.
enum SecretObject: Equatable, Sendable {
    case service
    /// The one collection, `login`, also reached through its alias `default`.
    case collection
    case item(reference: Data)
    case session(number: UInt64)
    /// An Unlock's prompt, while it is pending or asking (see ``UnlockPrompts``).
    case prompt(number: UInt64)

    static let servicePath = "/org/freedesktop/secrets"
    static let collectionPath = "/org/freedesktop/secrets/collection/login"
    static let defaultAliasPath = "/org/freedesktop/secrets/aliases/default"
    static let sessionPrefix = "/org/freedesktop/secrets/session/"
    static let promptPrefix = "/org/freedesktop/secrets/prompt/"
    /// The "no object" path D-Bus APIs answer with (no prompt, no collection).
    static let none = "/"

    /// The interface this kind of object implements.
    var interface: String {
        switch self {
        case .service: "org.freedesktop.Secret.Service"
        case .collection: "org.freedesktop.Secret.Collection"
        case .item: "org.freedesktop.Secret.Item"
        case .session: "org.freedesktop.Secret.Session"
        case .prompt: "org.freedesktop.Secret.Prompt"
        }
    }

    /// The object a path names, or nil for a path that names none of this provider's.
    init?(path: String) {
        switch path {
        case Self.servicePath:
            self = .service
        case Self.collectionPath, Self.defaultAliasPath:
            self = .collection
        default:
            if path.hasPrefix(Self.sessionPrefix) {
                guard let number = Self.number(path.dropFirst(Self.sessionPrefix.count)) else { return nil }
                self = .session(number: number)
                return
            }
            if path.hasPrefix(Self.promptPrefix) {
                guard let number = Self.number(path.dropFirst(Self.promptPrefix.count)) else { return nil }
                self = .prompt(number: number)
                return
            }
            for collection in [Self.collectionPath, Self.defaultAliasPath] where path.hasPrefix(collection + "/") {
                guard let reference = Self.reference(hex: path.dropFirst(collection.count + 1)) else { return nil }
                self = .item(reference: reference)
                return
            }
            return nil
        }
    }

    /// The path of this object; items are always named under `collection/login`.
    var path: String {
        switch self {
        case .service: Self.servicePath
        case .collection: Self.collectionPath
        case .item(let reference): Self.collectionPath + "/" + reference.map { String(format: "%02x", $0) }.joined()
        case .session(let number): Self.sessionPrefix + String(number)
        case .prompt(let number): Self.promptPrefix + String(number)
        }
    }

    /// A session's or prompt's number: decimal digits only, no sign, no leading "+".
    private static func number(_ digits: Substring) -> UInt64? {
        guard digits.count <= 19, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(digits)
    }

    /// A generic password's persistent reference (its 20 bytes: the class tag `genp`, then
    /// the item's UUID) from 40 lowercase hex digits; nil for anything else.
    private static func reference(hex: Substring) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count == 40 else { return nil }
        var bytes = Data(capacity: 20)
        for index in stride(from: 0, to: 40, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes.starts(with: Array("genp".utf8)) ? bytes : nil
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
