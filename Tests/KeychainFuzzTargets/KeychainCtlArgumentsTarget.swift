import ArgumentParser
import Foundation
import KeychainCtlCommands

/// keychainctl's argument handling: argument vectors built from the fuzzer's bytes, parsed by
/// the command tree as the program parses its own (``SecurityArguments`` first, then
/// `parseAsRoot`), and the parsed command run against the sandbox's keychains, with the
/// error message and exit status the program would print for a failure. Every keychain the
/// input made is deleted after it.
///
/// Each argument is a word of keychainctl's vocabulary (subcommands, options, typical
/// values) or free text. Free text never holds a `/`: every name the commands take then
/// stays inside the sandbox (keychains in its keychains folder, archives in its working
/// directory), whatever the fuzzer writes.
enum KeychainCtlArgumentsTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzBytes(bytes)
        var arguments: [String] = []
        for index in 0..<(1 + input.choice(12)) where !input.isAtEnd {
            if input.choice(5) == 0 {
                arguments.append(String(decoding: input.run(), as: UTF8.self).filter { $0 != "/" && $0 != "\0" })
            } else {
                arguments.append(index == 0 ? subcommands[input.choice(subcommands.count)] : words[input.choice(words.count)])
            }
        }
        FuzzSandbox.run {
            do {
                var command = try KeychainCtl.parseAsRoot(SecurityArguments.rewritten(arguments))
                try command.run()
            } catch {
                _ = KeychainCtl.exitCode(for: error)
                _ = KeychainCtl.fullMessage(for: error)
            }
        }
        FuzzSandbox.reset()
    }

    /// The subcommands' names, from the command tree.
    private static let subcommands: [String] = KeychainCtl.configuration.subcommands.compactMap {
        $0.configuration.commandName
    } + ["help"]

    /// Options of every subcommand, and values they take.
    private static let words: [String] = subcommands + [
        "-a", "-A", "-c", "-C", "-d", "-D", "-g", "-G", "-j", "-k", "-l", "-o", "-p", "-P", "-r", "-s", "-t", "-T",
        "-u", "-U", "-w", "-X", "-h", "-q", "-v", "--help", "--version", "--", "-",
        "--access-group", "--json", "--on-duplicate", "--password-stdin", "--prompt-for-password",
        "login", "work", "work.keychain", "work.keychain-db", "archive", "alice", "example.com", "service", "label",
        "secret", "password", "", " ", "0", "1", "-1", "65536", "300", "-25300", "-25308", "4294967296",
        "http", "htps", "ftp ", "dflt", "form", "genp", "inet", "1234", "user", "system", "common", "dynamic", "s",
        "replace", "skip", "fail", "fuzz.app", "fuzz.group", "\u{FFFD}", "é", "🔑",
        // search's attributes and find's --raw.
        "--raw", "account=alice", "service=example.com", "server=example.com", "port=443", "protocol=htps",
        "acct=", "=", "colour=red",
    ]
}
