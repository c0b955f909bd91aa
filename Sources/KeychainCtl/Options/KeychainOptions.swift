import ArgumentParser
import Foundation
import Security

/// What every item subcommand takes besides its attributes: the keychain and an access
/// group.
///
/// keychainctl is the user's tool, as `security` is: it holds Apple's special access group
/// `*` and so sees, changes and deletes the items of every program. `--access-group`
/// narrows a search to one group and chooses the group of a new item; without it, new
/// items go to keychainctl's own group, ``ownGroup``.
struct KeychainOptions: ParsableArguments {
    @Option(name: .customLong("access-group"), parsing: .unconditional,
            help: ArgumentHelp(
                "Only items of this access group; for adds, the group of the new item.",
                discussion: "Without it, searches cover every group and new items go to keychainctl's own, "
                    + "keychainctl (or the first of $KEYCHAIN_ACCESS_GROUPS), which other programs do not see.",
                valueName: "group"))
    var accessGroup: String?

    /// ``KeychainArgument``'s argument, declared here rather than as a nested group: each
    /// group is another type that ArgumentParser reflects and casts, several times, in every
    /// process (a fresh find's start-up measured it).
    @Argument(help: KeychainArgument.help)
    var keychain: String?

    var location: KeychainLocation { KeychainLocation(argument: keychain) }

    /// keychainctl's own access group, where new items go without `--access-group`: the
    /// first of `KEYCHAIN_ACCESS_GROUPS` when it is set, else `keychainctl`. Not the name of
    /// the executable, as a program's default group is: a copy or a link under another name
    /// must keep finding the items it added. No entitlements file is read either: keychainctl
    /// holds every group (`*`) anyway, and its own group is only where new items go.
    static var ownGroup: String {
        if getenv("KEYCHAIN_ACCESS_GROUPS") != nil,
           let first = KeychainEnvironment.process.accessGroups.first(where: { $0 != KeychainEnvironment.everyAccessGroup }) {
            return first
        }
        return "keychainctl"
    }

    /// `query`, narrowed to the chosen group, if any.
    func narrowed(_ query: [String: Any]) -> [String: Any] {
        var query = query
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// Runs searches, updates and deletes in the keychain, seeing every access group.
    func run<Result>(_ body: (ItemStore) throws -> Result) throws -> Result {
        try location.runSeeingEveryGroup(body)
    }

    /// Runs an add (and its `-U` update) in the keychain; the new item goes to the chosen
    /// group or keychainctl's own.
    func runAdding<Result>(_ body: (ItemStore) throws -> Result) throws -> Result {
        let group = accessGroup ?? Self.ownGroup
        return try location.run(accessGroups: [group, KeychainEnvironment.everyAccessGroup], body)
    }
}

extension KeychainLocation {
    /// Runs searches, updates and deletes in the keychain, seeing every access group, as
    /// keychainctl does unless `--access-group` narrows the query.
    func runSeeingEveryGroup<Result>(_ body: (ItemStore) throws -> Result) throws -> Result {
        try run(accessGroups: [KeychainEnvironment.everyAccessGroup], body)
    }
}
