/// When a keychain locks itself: the settings of `SecKeychainSettings`.
public struct KeychainSettings: Sendable, Hashable {
    /// Seconds without use after which the keychain locks; nil: it never locks by itself.
    public var lockInterval: UInt32?
    /// Whether the keychain locks when the machine sleeps (suspends).
    public var lockOnSleep: Bool

    public init(lockInterval: UInt32? = nil, lockOnSleep: Bool = false) {
        self.lockInterval = lockInterval
        self.lockOnSleep = lockOnSleep
    }

    /// New keychains never lock by themselves: servers and tools, this library's users, run
    /// unattended. `set-keychain-settings` and `SecKeychainSetSettings` change it.
    public static let `default` = KeychainSettings()
}
