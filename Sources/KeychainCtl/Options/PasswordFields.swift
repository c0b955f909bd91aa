import ArgumentParser
import Foundation
import Security

/// The attribute options of the password subcommands that both classes have, as each
/// class's fields declare them. In add subcommands they set the item's attributes; in find
/// and delete subcommands they are what a match must equal.
///
/// Declared in each class's fields rather than as a nested option group: ArgumentParser
/// reflects each group's type and casts its properties several times as it parses, and the
/// first cast of each type scans the program's conformance records, which a fresh find paid
/// for at start-up. What the options mean is written once, here.
enum SharedPasswordOption {
    static let account = ArgumentHelp("The account (kSecAttrAccount).", valueName: "account")
    static let label = ArgumentHelp("The label (kSecAttrLabel); an added item's defaults to its service or server.",
                                    valueName: "label")
    static let comment = ArgumentHelp("The comment (kSecAttrComment).", valueName: "comment")
    static let kind = ArgumentHelp("The kind (kSecAttrDescription).", valueName: "kind")
    static let creator = ArgumentHelp("The creator, a four-character code (kSecAttrCreator).", valueName: "creator")
    static let type = ArgumentHelp("The type, a four-character code (kSecAttrType).", valueName: "type")
}

/// What the add, find and delete subcommands of one password class need from its options.
protocol PasswordFields: ParsableArguments {
    static var itemClass: String { get }
    /// The subcommands' noun: `generic-password` or `internet-password`.
    static var noun: String { get }
    /// The item in a sentence: `a generic password`, `an internet password`.
    static var itemName: String { get }
    /// What `-s` names: `service` or `server`.
    static var serviceName: String { get }
    /// `-a`, `-l`, `-j`, `-D`, `-c` and `-C`, declared with ``SharedPasswordOption``'s help.
    var account: String? { get }
    var label: String? { get }
    var comment: String? { get }
    var kind: String? { get }
    var creator: FourCharCode? { get }
    var type: FourCharCode? { get }
    /// The attributes given, by kSecAttr key.
    var given: [String: Any] { get }
    /// The attributes of a new item: those given, with the defaults `security` gives.
    var newItem: [String: Any] { get }
    /// Whether `-a` and `-s`, which an add requires, were given.
    var namesItem: Bool { get }
}

extension PasswordFields {
    /// The attributes of the options both classes have, by kSecAttr key.
    var sharedGiven: [String: Any] {
        var attributes: [String: Any] = [:]
        attributes[kSecAttrAccount as String] = account
        attributes[kSecAttrLabel as String] = label
        attributes[kSecAttrComment as String] = comment
        attributes[kSecAttrDescription as String] = kind
        attributes[kSecAttrCreator as String] = creator?.number
        attributes[kSecAttrType as String] = type?.number
        return attributes
    }

    /// The class's primary-key attributes (those that make two items the same item), as the
    /// keychain itself defines them.
    static var primaryKey: Set<String> {
        SecItemClassKeys.primaryKey(of: itemClass)
    }

    /// The attributes given that name something: `security` treats a number 0 (`-P 0`) as
    /// not given.
    var named: [String: Any] { Self.nonzero(given) }

    /// What `-U` changes in the item it finds: the attributes given, numbers that are 0 left
    /// out as `security` leaves them out. Not a new item's defaults (its label, `dflt`): the
    /// item may be an app's, whose own label and authentication type stay.
    var changes: [String: Any] { named }

    /// The query of `security`'s find_first_*_password for `attributes`: when the whole
    /// primary key is named, it alone is searched (so `-U` can change the other attributes),
    /// else every attribute named; items of every synchronizable state.
    func search(_ attributes: [String: Any]) -> [String: Any] {
        let named = Self.nonzero(attributes)
        let key = named.filter { Self.primaryKey.contains($0.key) }
        var query = key.count == Self.primaryKey.count ? key : named
        query[kSecClass as String] = Self.itemClass
        query[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
        return query
    }

    /// What `-U` looks for: the primary-key attributes given, and only those. The others
    /// are what `-U` changes; and the defaults of a new item (its label, `dflt`), compared,
    /// would miss an app's item that has other ones and add a copy the app never sees.
    var updateSearch: [String: Any] {
        var query = named.filter { Self.primaryKey.contains($0.key) }
        query[kSecClass as String] = Self.itemClass
        query[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
        return query
    }

    private static func nonzero(_ attributes: [String: Any]) -> [String: Any] {
        // Strings, the most of them, are kept without a cast to NSNumber, which can never
        // succeed for them and goes through Foundation's bridging (a conformance lookup).
        attributes.filter { $0.value is String || ($0.value as? NSNumber)?.int64Value != 0 }
    }
}
