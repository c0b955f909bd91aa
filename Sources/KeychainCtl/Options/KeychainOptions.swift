import ArgumentParser
import Security

/// What every item subcommand takes besides its attributes: the keychain and an access
/// group.
///
/// keychainctl is the user's tool, as `security` is: it holds Apple's special access group
/// `*` and so sees, changes and deletes the items of every program. `--access-group`
/// narrows a search to one group and chooses the group of a new item; without it, new
/// items go to keychainctl's own group (the first of `KEYCHAIN_ACCESS_GROUPS`, of
/// `keychain-access-groups` in `keychainctl.entitlements` beside the executable, else
/// `keychainctl`), as a program's items go to its first group.
struct KeychainOptions: ParsableArguments {
    @Option(name: .customLong("access-group"), parsing: .unconditional,
            help: ArgumentHelp(
                "Only items of this access group; for adds, the group of the new item.",
                discussion: "Without it, searches cover every group and new items go to keychainctl's own.",
                valueName: "group"))
    var accessGroup: String?

    @OptionGroup var keychain: KeychainArgument

    var location: KeychainLocation { keychain.location }

    /// `query`, narrowed to the chosen group, if any.
    func narrowed(_ query: [String: Any]) -> [String: Any] {
        var query = query
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// Runs searches, updates and deletes in the keychain, seeing every access group.
    func run<Result>(_ body: (ItemStore) throws -> Result) throws -> Result {
        try location.run(accessGroups: [KeychainEnvironment.everyAccessGroup], body)
    }

    /// Runs an add (and its `-U` update) in the keychain; the new item goes to the chosen
    /// group or keychainctl's own.
    func runAdding<Result>(_ body: (ItemStore) throws -> Result) throws -> Result {
        let group = accessGroup ?? KeychainEnvironment.process.defaultAccessGroup ?? "keychainctl"
        return try location.run(accessGroups: [group, KeychainEnvironment.everyAccessGroup], body)
    }
}
