import ArgumentParser

/// The `[keychain]` argument that ends the item subcommands and the keychain subcommands
/// that work on one keychain, as `security` takes it.
struct KeychainArgument: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "The keychain: a name in $XDG_DATA_HOME/keychains or a path (default: the default keychain, login unless default-keychain -s chose another).",
        valueName: "keychain"))
    var keychain: String?

    var location: KeychainLocation { KeychainLocation(argument: keychain) }
}
