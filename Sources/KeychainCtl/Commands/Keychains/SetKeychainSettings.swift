import ArgumentParser
import Security

/// `set-keychain-settings`: when a keychain locks by itself.
struct SetKeychainSettings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-keychain-settings",
        abstract: "Set when a keychain locks by itself.",
        discussion: """
            The settings given replace all of them, as in security: without -t the keychain \
            never locks after a timeout (-u alone does not turn it on); without -l it does not \
            lock when the machine sleeps. So set-keychain-settings with no option turns both \
            off. The new settings hold at once in every process; show-keychain-info shows them.
            """)

    @Flag(name: .customShort("l"), help: "Lock when the machine sleeps (suspends).")
    var lockOnSleep = false

    @Flag(name: .customShort("u"), help: "Lock after the -t timeout; -t implies it, and it does nothing without -t.")
    var useLockInterval = false

    @Option(name: .customShort("t"),
            help: ArgumentHelp("Lock after this many seconds without use.", valueName: "timeout"))
    var timeout: UInt32?

    @OptionGroup var keychain: KeychainArgument

    func run() throws {
        let location = keychain.location
        // As security does: -t implies -u, and without -t there is no timeout.
        var settings = SecKeychainSettings(version: UInt32(SEC_KEYCHAIN_SETTINGS_VERS1), lockOnSleep: DarwinBoolean(lockOnSleep),
                                           useLockInterval: DarwinBoolean(timeout != nil), lockInterval: timeout ?? 0)
        try check(SecKeychainSetSettings(try location.open(), &settings), location.operation("SecKeychainSetSettings"))
    }
}
