import ArgumentParser

/// The `[keychain]` argument that ends the item subcommands and the keychain subcommands
/// that work on one keychain, as `security` takes it.
struct KeychainArgument: ParsableArguments {
    /// The argument's help, also that of ``KeychainOptions``, which declares the argument
    /// itself rather than nest this group.
    static let help = ArgumentHelp(
        "The keychain: a name in $XDG_DATA_HOME/keychains or a path (default: the default keychain, login unless default-keychain -s chose another).",
        valueName: "keychain")

    @Argument(help: help)
    var keychain: String?

    var location: KeychainLocation { KeychainLocation(argument: keychain) }
}
