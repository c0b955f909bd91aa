import ArgumentParser
import Foundation
import Security
#if canImport(Glibc)
import Glibc
#endif

/// `--password-stdin`: a password from a pipe or a file rather than from the command line,
/// where `ps` shows it, or from a prompt, which a script cannot answer. Every subcommand
/// that takes a password offers it.
///
/// At most ``limit`` bytes are read: a password is short, and an endless input (`/dev/zero`)
/// must end in an error, not in memory exhaustion. A read that fails (standard input closed,
/// a directory, EIO) is an error too, never a shorter password.
struct StandardInputPassword: ParsableArguments {
    /// The longest password accepted, without its final newline: 64 KiB.
    static let limit = 64 * 1024

    @Flag(name: .customLong("password-stdin"),
          help: "Read the password from standard input, a pipe or a file, to its end; one final newline is dropped. At most 64 KiB.")
    var isSet = false

    func validate() throws {
        if isSet, isatty(STDIN_FILENO) == 1 {
            throw ValidationError(
                "--password-stdin reads a pipe or a file, and standard input is a terminal: use the password prompt instead.")
        }
    }

    /// The password read, when `--password-stdin` was given.
    ///
    /// - Throws: A ``ToolFailure`` with exit status 1 when standard input cannot be read,
    ///   and errSecParam's (206) when it holds more than ``limit`` bytes.
    func read() throws(ToolFailure) -> Data? {
        guard isSet else { return nil }
        guard !StandardDescriptors.inputWasClosed else {
            throw .other("--password-stdin: standard input is closed; pipe the password in or redirect it from a file")
        }
        // The limit, and room for the final "\r\n" that is dropped, and one byte to tell a
        // longer input.
        var data = try Self.readInput(atMost: Self.limit + 3)
        if data.last == UInt8(ascii: "\n") {
            data.removeLast()
            if data.last == UInt8(ascii: "\r") { data.removeLast() }
        }
        guard data.count <= Self.limit else {
            data.resetBytes(in: data.startIndex..<data.endIndex)
            throw ToolFailure(
                message: "keychainctl: --password-stdin: the password is longer than 64 KiB (65536 bytes); nothing was changed",
                exitStatus: ExitStatus.code(for: errSecParam))
        }
        return data
    }

    /// Standard input up to its end or `count` bytes, whichever comes first.
    private static func readInput(atMost count: Int) throws(ToolFailure) -> Data {
        switch DescriptorIO.read(STDIN_FILENO, atMost: count) {
        case .success(let data):
            return data
        case .failure(let error):
            let reason = error.code == .EISDIR ? "standard input is a directory" : String(cString: strerror(error.code.rawValue))
            throw .other("--password-stdin: cannot read standard input: \(reason)")
        }
    }
}
