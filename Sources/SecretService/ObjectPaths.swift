import Foundation

/// What an object path of the provider names.
///
/// A collection is a keychain of the user's keychain folder, at
/// `/org/freedesktop/secrets/collection/<name>` (the name spelled by
/// ``CollectionPathName``); `/org/freedesktop/secrets/aliases/default` is the default
/// keychain, whichever it is when the call comes; `aliases/login` the login keychain and
/// `aliases/session` the collection `session` (``SessionCollection``), which those paths also
/// name as `collection/login` and `collection/session`; `aliases/<name>` for another alias
/// is the collection it names now (see ``CollectionAliases``). Items are named under their collection by
/// their keychain persistent reference in lowercase hex, which is made of valid path
/// characters and stays the same for the item's life, whatever changes in it.
enum SecretObject: Equatable, Sendable {
    case service
    /// The keychain `name`; nil for the alias `default`.
    case collection(name: String?)
    /// An item of the keychain `collection` (nil: reached through the alias `default`).
    case item(collection: String?, reference: Data)
    case session(number: UInt64)
    /// A prompt, while it is pending or asking (see ``Prompts``).
    case prompt(number: UInt64)

    static let servicePath = "/org/freedesktop/secrets"
    static let collectionPrefix = "/org/freedesktop/secrets/collection/"
    static let aliasPrefix = "/org/freedesktop/secrets/aliases/"
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
    /// `alias` gives the collection an alias other than `default`, `login` and `session`
    /// names (nil: none), for paths under `aliases/`.
    init?(path: String, alias: (String) -> String? = { _ in nil }) {
        if path == Self.servicePath {
            self = .service
        } else if path.hasPrefix(Self.sessionPrefix) {
            guard let number = Self.number(path.dropFirst(Self.sessionPrefix.count)) else { return nil }
            self = .session(number: number)
        } else if path.hasPrefix(Self.promptPrefix) {
            guard let number = Self.number(path.dropFirst(Self.promptPrefix.count)) else { return nil }
            self = .prompt(number: number)
        } else {
            let collection: String?
            let rest: Substring
            if path.hasPrefix(Self.aliasPrefix) {
                let tail = path.dropFirst(Self.aliasPrefix.count)
                let aliasName = tail.prefix(while: { $0 != "/" })
                switch aliasName {
                case "default": collection = nil
                case "session": collection = SessionCollection.name
                case "login": collection = "login"
                default:
                    guard let target = alias(String(aliasName)) else { return nil }
                    collection = target
                }
                rest = tail.dropFirst(aliasName.count)
            } else if path.hasPrefix(Self.collectionPrefix) {
                let tail = path.dropFirst(Self.collectionPrefix.count)
                let element = tail.prefix(while: { $0 != "/" })
                guard let name = CollectionPathName.decode(element) else { return nil }
                collection = name
                rest = tail.dropFirst(element.count)
            } else {
                return nil
            }
            if rest.isEmpty {
                self = .collection(name: collection)
            } else if rest.first == "/", let reference = Self.reference(hex: rest.dropFirst()) {
                self = .item(collection: collection, reference: reference)
            } else {
                return nil
            }
        }
    }

    /// The path of the keychain `name`'s collection.
    static func collectionPath(_ name: String) -> String {
        collectionPrefix + CollectionPathName.encode(name)
    }

    /// The path of this object.
    var path: String {
        switch self {
        case .service: Self.servicePath
        case .collection(let name): name.map(Self.collectionPath) ?? Self.defaultAliasPath
        case .item(let collection, let reference):
            (collection.map(Self.collectionPath) ?? Self.defaultAliasPath) + "/"
                + reference.map { String(format: "%02x", $0) }.joined()
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
