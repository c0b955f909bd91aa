/// When a keychain locks itself: the settings of `SecKeychainSettings`.
package struct KeychainSettings: Sendable, Hashable {
    /// Seconds without use after which the keychain locks; nil: it never locks by itself.
    package var lockInterval: UInt32?
    /// Whether the keychain locks when the machine sleeps (suspends).
    package var lockOnSleep: Bool

    package init(lockInterval: UInt32? = nil, lockOnSleep: Bool = false) {
        self.lockInterval = lockInterval
        self.lockOnSleep = lockOnSleep
    }

    /// New keychains never lock by themselves: servers and tools, this library's users, run
    /// unattended. `set-keychain-settings` and `SecKeychainSetSettings` change it.
    package static let `default` = KeychainSettings()
}
