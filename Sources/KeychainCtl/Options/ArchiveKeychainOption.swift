import ArgumentParser
import Security

/// The `-k <keychain>` of `export-archive` and `import-archive`, whose argument is the
/// archive file, and of `search`, whose arguments are attributes.
struct ArchiveKeychainOption: ParsableArguments {
    @Option(name: .customShort("k"),
            help: ArgumentHelp("The keychain: a name in $XDG_DATA_HOME/keychains or a path (default: the default keychain).",
                               valueName: "keychain"))
    var keychain: String?

    var location: KeychainLocation { KeychainLocation(argument: keychain) }

    /// The keychain, once it is known to exist (the default one is created on first use).
    func open() throws -> SecKeychain {
        try location.open()
    }
}
