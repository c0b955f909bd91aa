#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line as the kernel passed it, checked to be valid UTF-8 before ArgumentParser
/// reads it.
///
/// `CommandLine.arguments` repairs invalid UTF-8 to U+FFFD, so two accounts that differ
/// only in their invalid bytes would name one item, and a find would return the other
/// item's secret. Such an argument is a usage error (exit status 2) instead.
enum RawArguments {
    /// Options whose value is a password, by subcommand: their invalid values are named as
    /// "the password argument" and never shown, even escaped.
    private static let passwordOptions: [String: [String]] = [
        "add-generic-password": ["-w", "-X"],
        "add-internet-password": ["-w", "-X"],
        "create-keychain": ["-p"],
        "unlock-keychain": ["-p"],
        "set-keychain-password": ["-o", "-p"],
    ]

    /// The arguments after the program name as strings, or the first one that is not valid
    /// UTF-8.
    static func checked(_ raw: [[UInt8]]) -> Result<[String], InvalidArgument> {
        var arguments: [String] = []
        for (index, bytes) in raw.enumerated() {
            guard let argument = String(validating: bytes, as: UTF8.self) else {
                let concealed = isPassword(bytes, after: index > 0 ? raw[index - 1] : nil, subcommand: raw.first)
                return .failure(InvalidArgument(position: index + 1, bytes: bytes, isPassword: concealed))
            }
            arguments.append(argument)
        }
        return .success(arguments)
    }

    /// The bytes of `argv[1...]`, read from the process's own argument vector.
    static func ofProcess() -> [[UInt8]] {
        // argc is 0 when a program was started with an empty argument vector.
        (1..<max(1, Int(CommandLine.argc))).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }

    /// Whether an argument is, or may be, a password: the value after a password option of
    /// its subcommand, or such an option with its value attached (`-wsecret`). A value that
    /// follows another option, `-l -w` say, is concealed too: in doubt, conceal.
    private static func isPassword(_ argument: [UInt8], after previous: [UInt8]?, subcommand: [UInt8]?) -> Bool {
        guard let previous, let subcommand, let name = String(validating: subcommand, as: UTF8.self),
              let options = passwordOptions[name]?.map({ Array($0.utf8) })
        else { return false }
        return options.contains(previous) || options.contains { argument.starts(with: $0) }
    }
}

/// An argument that is not valid UTF-8: a usage error.
struct InvalidArgument: Error {
    /// 1 for the first argument after the program name (the subcommand).
    let position: Int
    let bytes: [UInt8]
    let isPassword: Bool

    /// Names the argument by its position and shows its bytes, printable ASCII as is and
    /// every other byte as `\xHH`; a password is named only as "the password argument".
    var message: String {
        let shown = isPassword
            ? "the password argument"
            : "\"" + bytes.map { byte in
                (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"")
                    ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }.joined() + "\""
        return "keychainctl: argument \(position) (\(shown)) is not valid UTF-8; keychainctl reads UTF-8 arguments only"
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
