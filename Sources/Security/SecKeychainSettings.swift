@_implementationOnly import KeychainCore

/// The version of `SecKeychainSettings` this API reads and writes.
public let SEC_KEYCHAIN_SETTINGS_VERS1: Int32 = 1

/// A C boolean, as Darwin's `Boolean` appears in Swift; `true` and `false` literals work.
public struct DarwinBoolean: ExpressibleByBooleanLiteral, Sendable, Hashable, CustomStringConvertible {
    public var boolValue: Bool
    public init(_ value: Bool) { boolValue = value }
    public init(booleanLiteral value: Bool) { boolValue = value }
    public var description: String { boolValue.description }
}

/// When a keychain locks itself, as `SecKeychainCopySettings` and `SecKeychainSetSettings`
/// read and write it. Set `version` to `SEC_KEYCHAIN_SETTINGS_VERS1`.
public struct SecKeychainSettings: Sendable, Hashable {
    public var version: UInt32
    /// Lock when the machine sleeps (suspends).
    public var lockOnSleep: DarwinBoolean
    /// Lock after `lockInterval` seconds without use.
    public var useLockInterval: DarwinBoolean
    /// Seconds; read only when `useLockInterval` is true.
    public var lockInterval: UInt32

    public init() {
        self.init(version: UInt32(SEC_KEYCHAIN_SETTINGS_VERS1), lockOnSleep: false, useLockInterval: false, lockInterval: 0)
    }

    public init(version: UInt32, lockOnSleep: DarwinBoolean, useLockInterval: DarwinBoolean, lockInterval: UInt32) {
        self.version = version
        self.lockOnSleep = lockOnSleep
        self.useLockInterval = useLockInterval
        self.lockInterval = lockInterval
    }

    init(_ settings: KeychainSettings) {
        self.init(version: UInt32(SEC_KEYCHAIN_SETTINGS_VERS1), lockOnSleep: DarwinBoolean(settings.lockOnSleep),
                  useLockInterval: DarwinBoolean(settings.lockInterval != nil),
                  lockInterval: settings.lockInterval ?? 0)
    }

    var keychainSettings: KeychainSettings {
        KeychainSettings(lockInterval: useLockInterval.boolValue ? lockInterval : nil,
                         lockOnSleep: lockOnSleep.boolValue)
    }
}
