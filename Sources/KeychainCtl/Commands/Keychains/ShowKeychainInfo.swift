import ArgumentParser
import Security

/// `show-keychain-info`: a keychain's auto-lock settings, in `security`'s words, and with
/// `--protection` what protects its items at rest.
struct ShowKeychainInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-keychain-info",
        abstract: "Show when a keychain locks by itself, or what protects it.",
        discussion: """
            Prints on standard error, as security does: Keychain "<keychain>", then lock-on-sleep \
            when it locks as the machine sleeps, then no-timeout, or timeout=<seconds>s when it \
            locks after that long without use. <keychain> is as named, or the default keychain's \
            path.

            With --protection, prints on standard output instead what protects the keychain's \
            items at rest: a first line "protection: " followed by "password, tpm", \
            "password, file", "tpm" or "file", then a sentence saying what that means. \
            "password": items of the when-unlocked and after-first-unlock classes open only \
            with the keychain's password. "tpm": the device key (which opens the other items, \
            and all of a keychain without a password) is sealed to this machine's TPM 2.0, so \
            a copy of the keychain's files opens nothing on another machine, or here once the \
            TPM is cleared. "file": the device key is in a file beside the database, so \
            whoever can read the keychain's files, a copy or backup of them included, can open \
            those items.
            """)

    @Flag(help: "Show what protects the keychain's items at rest (password, tpm, file) rather than its settings.")
    var protection = false

    @OptionGroup var keychain: KeychainArgument

    func run() throws {
        let location = keychain.location
        if protection {
            let opened = try location.open()
            let found: SecKeychainProtection
            do {
                found = try opened.protection()
            } catch {
                throw ToolFailure.status(error.status, during: "show-keychain-info \(location.displayName)", reason: error.reason)
            }
            ConsoleOutput.write(Self.describe(found) + "\n")
            return
        }
        var settings = SecKeychainSettings()
        try check(SecKeychainCopySettings(try location.open(), &settings), location.operation("SecKeychainCopySettings"))
        // macOS's SecKeychainCopySettings leaves useLockInterval false, so security never
        // prints its use-lock-interval word: a timeout shows as timeout=<n>s alone.
        let timeout = settings.useLockInterval.boolValue ? " timeout=\(settings.lockInterval)s" : " no-timeout"
        ConsoleOutput.error("Keychain \"\(location.displayName)\"\(settings.lockOnSleep.boolValue ? " lock-on-sleep" : "")\(timeout)")
    }

    /// The protection's first line, then what it means.
    static func describe(_ protection: SecKeychainProtection) -> String {
        let device = protection.deviceKeyIsSealedToTPM ? "tpm" : "file"
        let word = protection.hasPassword ? "password, \(device)" : device
        let password = protection.hasPassword
            ? "Items that open when unlocked or after the first unlock need the keychain's password. "
            : "The keychain has no password. "
        let rest = protection.hasPassword ? "Its other items (always available) and its index" : "Its items"
        let key = protection.deviceKeyIsSealedToTPM
            ? "\(rest) open with a device key sealed to this machine's TPM: a copy of the keychain's files opens nothing on another machine, or on this one once its TPM is cleared. To move items to another machine, use export-archive and import-archive."
            : "\(rest) open with a device key kept in a file beside the database (no TPM was in use when the keychain was made): whoever can read the keychain's files, a copy or backup of them included, can read them."
        return "protection: \(word)\n\(password)\(key)"
    }
}
