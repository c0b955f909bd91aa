import Security

/// keychainctl's exit statuses, in one table: the exits use it, `keychainctl error <n>`
/// explains a status from it and the help's "Exit status" paragraph is written from it.
///
/// As `security`'s, a failing Keychain Services status exits with its low byte (so
/// errSecItemNotFound, -25300, exits 44); keychainctl's own statuses (1, 2, 3) are numbers
/// no status of this module truncates to.
package struct ExitStatus: Sendable {
    /// The number the process exits with.
    package let code: Int32
    /// What it means, in a phrase.
    let meaning: String
    /// The Keychain Services status it is the low byte of, with the status's name.
    let status: (name: String, value: OSStatus)?

    private init(_ code: Int32, _ meaning: String) {
        (self.code, self.meaning, self.status) = (code, meaning, nil)
    }

    /// The entry of a Keychain Services status, named as in the status table (so that the name
    /// is not spelled a second time here).
    private init(status value: OSStatus, _ meaning: String) {
        let name = SecStatusCatalog.name(of: value) ?? "OSStatus \(value)"
        (self.code, self.meaning, self.status) = (Self.code(for: value), meaning, (name, value))
    }

    static let success = ExitStatus(0, "success")
    /// A failure that is not a Keychain Services status: a file that cannot be read or
    /// written, a password prompt that got no answer.
    package static let failure = ExitStatus(1, "a failure outside Keychain Services, such as an unreadable file")
    package static let usage = ExitStatus(2, "a usage error: an unknown option, a bad argument, one not UTF-8")
    /// An add with -U or a delete whose attributes match items of several access groups.
    static let ambiguous = ExitStatus(3, "items of several access groups match: choose with --access-group")
    /// A password prompt ended by a signal (Ctrl-C is 130): 128 and the signal's number.
    static let signalBase: Int32 = 128

    /// Every status keychainctl documents, by code. The meanings are short enough for the
    /// help's list to keep a line each.
    static let table: [ExitStatus] = [
        success, failure, usage, ambiguous,
        ExitStatus(status: errSecInteractionNotAllowed, "the keychain is locked (unlock-keychain)"),
        ExitStatus(status: errSecItemNotFound, "no item matches"),
        ExitStatus(status: errSecDuplicateItem, "the item exists already"),
        ExitStatus(status: errSecDuplicateKeychain, "the keychain exists already"),
        ExitStatus(status: errSecNoSuchKeychain, "no such keychain"),
        ExitStatus(status: errSecAuthFailed, "a wrong password (keychain or archive)"),
        ExitStatus(status: errSecDecode, "items that failed to open were skipped, or not an archive"),
        ExitStatus(status: errSecParam, "a bad parameter, such as an empty password on stdin"),
        ExitStatus(status: errSecIO, "an I/O error on the keychain's files"),
        ExitStatus(status: errSecNotAvailable, "the keychain cannot be used here: an unsafe folder or file, or a TPM-sealed key with no TPM to unseal it"),
    ].sorted { $0.code < $1.code }

    /// The entry of `code`, if keychainctl documents it.
    static func entry(_ code: Int32) -> ExitStatus? {
        table.first { $0.code == code }
    }

    /// The status truncated to 8 bits, as `security`'s exit status is. A failure whose low
    /// byte is 0 (-256, say) exits 1 instead: a script must never read it as success.
    static func code(for status: OSStatus) -> Int32 {
        let low = Int32(UInt8(truncatingIfNeeded: status))
        return low == 0 && status != 0 ? failure.code : low
    }

    /// The explanation `keychainctl error <code>` prints after the message of the code.
    var explanation: String {
        var text = "keychainctl exit status \(code): \(meaning)"
        if let status {
            let message = SecCopyErrorMessageString(status.value, nil).map { $0 as String } ?? ""
            text += " (\(status.name), \(status.value): \(message))"
        }
        return text
    }

    /// The explanation of a code that is not in the table, when it is one of the
    /// prompt's signal exits; nil otherwise.
    static func signalExplanation(_ code: Int32) -> String? {
        guard code > signalBase, code < signalBase + 32 else { return nil }
        return "keychainctl exit status \(code): a password prompt was ended by signal \(code - signalBase)"
    }

    /// The explanation of a code that is not in the table but is the low byte of statuses
    /// the library knows (what any other failure exits with), naming them; nil otherwise.
    static func lowByteExplanation(_ code: Int32) -> String? {
        guard code > 0, code <= 255 else { return nil }
        let statuses = SecStatusCatalog.statuses(withLowByte: UInt8(code))
        guard !statuses.isEmpty else { return nil }
        return "keychainctl exit status \(code): the low byte of "
            + statuses.map { "\($0.name) (\($0.status))" }.joined(separator: ", ")
    }

    /// The help's list of exit statuses, a line for each entry of the table.
    static var summary: String {
        let lines = table.map { entry in
            let code = String(entry.code)
            return String(repeating: " ", count: 5 - code.count) + code + "  "
                + (entry.status.map { "\($0.name): " } ?? "") + entry.meaning
        }
        return (["Exit status:"] + lines + [
            "  129+ a password prompt was ended by signal n: 128 + n (130 for Ctrl-C)",
            "",
            "Any other status is the low byte of a Keychain Services status; keychainctl error <n> explains it.",
        ]).joined(separator: "\n")
    }
}
