import ArgumentParser
import Security

/// `error`: the message of status codes, as `security error` prints it.
struct ErrorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "error",
        abstract: "Show the message of one or more status codes, and what keychainctl's exit statuses mean.",
        discussion: """
            Codes are decimal (-25300) or hexadecimal (0xFFFF9D2C). Prints Error: 0x%08X %d <message>; \
            for a code that is one of keychainctl's exit statuses (0 to 255, such as 44 or 93), a second \
            line, keychainctl exit status <n>: <meaning>, says what keychainctl means by it, or which \
            Keychain Services statuses end in that byte.
            """)

    @Argument(help: ArgumentHelp("A status code.", valueName: "code"))
    var codes: [StatusCode]

    func run() {
        for code in codes {
            let message = SecCopyErrorMessageString(code.status, nil).map { $0 as String } ?? ""
            let hex = String(UInt32(bitPattern: code.status), radix: 16, uppercase: true)
            ConsoleOutput.write("Error: 0x\(String(repeating: "0", count: 8 - hex.count))\(hex) \(code.status) \(message)\n")
            if let explanation = ExitStatus.entry(code.status)?.explanation ?? ExitStatus.signalExplanation(code.status)
                ?? ExitStatus.lowByteExplanation(code.status) {
                ConsoleOutput.write(explanation + "\n")
            }
        }
    }
}

/// A status code as given on the command line: a decimal number, negative or not, or
/// `0x` and up to eight hex digits, read as the code's 32 bits.
struct StatusCode: ExpressibleByArgument {
    let status: OSStatus

    init?(argument: String) {
        if argument.lowercased().hasPrefix("0x"), let bits = UInt32(argument.dropFirst(2), radix: 16) {
            status = OSStatus(bitPattern: bits)
        } else if let number = Int32(argument) {
            status = number
        } else if let bits = UInt32(argument) {
            status = OSStatus(bitPattern: bits)
        } else {
            return nil
        }
    }
}
