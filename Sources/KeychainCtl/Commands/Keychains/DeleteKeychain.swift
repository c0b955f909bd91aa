import ArgumentParser
import Security

/// `delete-keychain`: keychains and every item in them, files and all.
struct DeleteKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-keychain",
        abstract: "Delete keychains and every item in them.",
        discussion: """
            Each keychain's files are removed, in the order given; the first that does not exist \
            stops the command (errSecNoSuchKeychain, exit status 50). Deleting the default \
            keychain leaves it the default: it is created again, empty, at its next use.
            """)

    @Argument(help: ArgumentHelp("A keychain to delete: a name in $XDG_DATA_HOME/keychains or a path.",
                                 valueName: "keychain"))
    var names: [String]

    func validate() throws {
        // An empty name would be the default keychain, which must be named to be deleted.
        if names.contains(where: \.isEmpty) {
            throw ValidationError("A keychain's name cannot be empty.")
        }
    }

    func run() throws {
        for name in names {
            let location = KeychainLocation(argument: name)
            try check(SecKeychainDelete(location.keychain), location.operation("SecKeychainDelete"))
        }
    }
}
