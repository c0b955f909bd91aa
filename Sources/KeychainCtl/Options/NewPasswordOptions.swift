import ArgumentParser
import Foundation
import Security

/// Where the add subcommands take the new item's password from. At most one source; with
/// none the item has an empty password (and `-U` keeps the password it had). An empty
/// password read from standard input needs `--allow-empty`: `printf %s "$TOKEN"` with
/// `TOKEN` unset is a mistake far more often than a wish.
///
/// A password need never be on the command line, where `ps` shows it: `-w` as the last
/// argument asks for it twice without echo, and `--password-stdin` reads it from a pipe.
struct NewPasswordOptions: ParsableArguments {
    @Option(name: .customShort("w"), parsing: .unconditional,
            help: ArgumentHelp(
                "The password. As the last argument with no value, asks for it twice without echo.",
                discussion: "Anything on the command line shows in `ps`: prefer the prompt or --password-stdin.",
                valueName: "password"))
    var password: String?

    @Option(name: .customShort("X"), parsing: .unconditional,
            help: ArgumentHelp("The password as hexadecimal digits, for binary passwords.", valueName: "hexpassword"))
    var hexPassword: String?

    @OptionGroup var standardInput: StandardInputPassword

    @Flag(name: .customLong("allow-empty"),
          help: "Accept an empty password read with --password-stdin; without it, empty input is refused, so that an unset variable piped in never stores an empty secret.")
    var allowEmpty = false

    /// Set for a trailing `-w` with no value (see ``SecurityArguments``).
    @Flag(name: .customLong(String(SecurityArguments.promptFlag.dropFirst(2))), help: .hidden)
    var prompt = false

    func validate() throws {
        let sources = [password != nil, hexPassword != nil, standardInput.isSet, prompt].filter { $0 }
        if sources.count > 1 {
            throw ValidationError("Give the password one way only: -w, -X or --password-stdin.")
        }
        if allowEmpty, !standardInput.isSet {
            throw ValidationError("--allow-empty applies to --password-stdin only.")
        }
        if let hexPassword, HexDigits.bytes(hexPassword) == nil {
            throw ValidationError("Unable to convert password data (-X must specify valid hex digits)")
        }
    }

    /// The password given, asked for or read; nil when none was given.
    func read() throws -> Data? {
        if let password { return Data(password.utf8) }
        if let hexPassword { return HexDigits.bytes(hexPassword) }
        if prompt { return try PasswordPrompt.newPassword("password data for new item: ", retype: "retype password for new item: ") }
        guard let read = try standardInput.read() else { return nil }
        guard !read.isEmpty || allowEmpty else {
            throw ToolFailure(
                message: "keychainctl: --password-stdin: standard input is empty, so the password would be empty; "
                    + "nothing was stored. Add --allow-empty to store an empty password.",
                exitStatus: ExitStatus.code(for: errSecParam))
        }
        return read
    }
}
