/// When an item may be read: the values of `kSecAttrAccessible`.
///
/// Each value selects a protection class whose key seals the item. The keychain of this
/// release has no password, so every class is open; the classes exist so that locking can
/// give them meaning without a change of storage format.
public enum Accessibility: String, Sendable, CaseIterable, Hashable {
    case whenUnlocked = "ak"
    case afterFirstUnlock = "ck"
    case always = "dk"
    case whenUnlockedThisDeviceOnly = "aku"
    case afterFirstUnlockThisDeviceOnly = "cku"
    case alwaysThisDeviceOnly = "dku"
    case whenPasscodeSetThisDeviceOnly = "akpu"

    /// The default for new items of a class (rule 11): certificates are readable always.
    public static func defaultValue(for itemClass: ItemClass) -> Accessibility {
        itemClass == .certificate ? .always : .whenUnlocked
    }

    /// Items bound to this machine: they never leave it in an export.
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlocked, .afterFirstUnlock, .always: false
        default: true
        }
    }
}
