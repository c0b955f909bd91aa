import ArgumentParser
import Security

/// `default-keychain`: shows the default keychain, or with `-s` makes another the default.
struct DefaultKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "default-keychain",
        abstract: "Show or set the default keychain.",
        discussion: """
            The default keychain is the one the item subcommands, and every program's SecItem \
            calls, use when no keychain is named: login unless -s chose another. -s <keychain> \
            records the choice in $XDG_DATA_HOME/keychains for every later process; the keychain \
            must exist there. -s alone makes login the default again.
            """)

    @Option(name: .customShort("d"),
            help: ArgumentHelp("Whose default: user (the default); system, common and dynamic have none on Linux.",
                               valueName: "domain"))
    var domain: PreferencesDomain = .user

    @Flag(name: .customShort("s"), help: "Make <keychain> the default (login without one).")
    var set = false

    @Argument(help: ArgumentHelp("With -s, the new default keychain: a name in $XDG_DATA_HOME/keychains.",
                                 valueName: "keychain"))
    var keychain: String?

    func validate() throws {
        if keychain != nil, !set {
            throw ValidationError("A keychain is named only with -s, to make it the default.")
        }
        if set, domain != .user {
            throw ValidationError("Only the user domain has a default keychain on Linux.")
        }
    }

    func run() throws {
        if set {
            let chosen = try keychain.map { try KeychainLocation(argument: $0).open() }
            try check(SecKeychainSetDefault(chosen), "SecKeychainSetDefault")
            return
        }
        guard domain == .user else { return }
        var current: SecKeychain?
        try check(SecKeychainCopyDefault(&current), "SecKeychainCopyDefault")
        ConsoleOutput.write(current.map(KeychainPathLine.text) ?? "")
    }
}
