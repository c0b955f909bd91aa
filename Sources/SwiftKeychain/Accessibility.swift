/// When an item's secret can be read (`kSecAttrAccessible`).
///
/// Raw values are Apple's (`kSecAttrAccessibleWhenUnlocked` is `"ak"`). On Linux they select
/// the protection class of the item's key: class A (`ak`, `aku`, `akpu`) opens only while the
/// keychain is unlocked, class C (`ck`, `cku`) from its first unlock until restart, class D
/// (`dk`, `dku`) always; the `ThisDeviceOnly` ones never leave this machine.
public enum Accessibility: String, Sendable, Hashable, CaseIterable {
    /// While the keychain is unlocked (`kSecAttrAccessibleWhenUnlocked`); the system default.
    case whenUnlocked = "ak"
    /// From the first unlock until restart (`kSecAttrAccessibleAfterFirstUnlock`).
    case afterFirstUnlock = "ck"
    /// Always (`kSecAttrAccessibleAlways`). Deprecated by Apple; prefer ``afterFirstUnlock``.
    case always = "dk"
    /// While unlocked, and never leaves this device (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`).
    case whenUnlockedThisDeviceOnly = "aku"
    /// After first unlock, and never leaves this device (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    case afterFirstUnlockThisDeviceOnly = "cku"
    /// Always, and never leaves this device (`kSecAttrAccessibleAlwaysThisDeviceOnly`). Deprecated by Apple.
    case alwaysThisDeviceOnly = "dku"
    /// While unlocked, only if a passcode (on Linux: a keychain password) is set
    /// (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`).
    case whenPasscodeSetThisDeviceOnly = "akpu"
}
