import ArgumentParser
import Security

/// `show-keychain-info`: a keychain's auto-lock settings, in `security`'s words.
struct ShowKeychainInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-keychain-info",
        abstract: "Show when a keychain locks by itself.",
        discussion: """
            Prints on standard error, as security does: Keychain "<keychain>", then lock-on-sleep \
            when it locks as the machine sleeps, then no-timeout, or timeout=<seconds>s when it \
            locks after that long without use. <keychain> is as named, or the default keychain's \
            path.
            """)

    @OptionGroup var keychain: KeychainArgument

    func run() throws {
        let location = keychain.location
        var settings = SecKeychainSettings()
        try check(SecKeychainCopySettings(try location.open(), &settings), location.operation("SecKeychainCopySettings"))
        // macOS's SecKeychainCopySettings leaves useLockInterval false, so security never
        // prints its use-lock-interval word: a timeout shows as timeout=<n>s alone.
        let timeout = settings.useLockInterval.boolValue ? " timeout=\(settings.lockInterval)s" : " no-timeout"
        ConsoleOutput.error("Keychain \"\(location.displayName)\"\(settings.lockOnSleep.boolValue ? " lock-on-sleep" : "")\(timeout)")
    }
}
