import ArgumentParser
import Foundation

/// A keychain's password, for `create-keychain` and `unlock-keychain`: `-p` as `security`
/// takes it, or `--password-stdin`; with neither, the subcommand asks for it without echo.
struct KeychainPasswordOptions: ParsableArguments {
    @Option(name: .customShort("p"), parsing: .unconditional,
            help: ArgumentHelp(
                "The keychain's password.",
                discussion: "Anything on the command line shows in `ps`: prefer the prompt or --password-stdin.",
                valueName: "password"))
    var password: String?

    @OptionGroup var standardInput: StandardInputPassword

    /// Whether a password was given with -p or --password-stdin.
    var isGiven: Bool { password != nil || standardInput.isSet }

    func validate() throws {
        if password != nil, standardInput.isSet {
            throw ValidationError("Give the password one way only: -p or --password-stdin.")
        }
    }

    /// The password given or read; nil when the subcommand is to ask for it.
    func given() throws -> Data? {
        try password.map { Data($0.utf8) } ?? standardInput.read()
    }
}
