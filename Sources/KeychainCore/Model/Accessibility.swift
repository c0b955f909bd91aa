/// When an item may be read: the values of `kSecAttrAccessible`.
///
/// Each value selects the key that seals the item, and through its ``protectionClass`` when
/// that key is available: A while the keychain is unlocked, C from its first unlock since
/// boot, D always. ThisDeviceOnly values are also bound to this machine.
package enum Accessibility: String, Sendable, CaseIterable, Hashable {
    case whenUnlocked = "ak"
    case afterFirstUnlock = "ck"
    case always = "dk"
    case whenUnlockedThisDeviceOnly = "aku"
    case afterFirstUnlockThisDeviceOnly = "cku"
    case alwaysThisDeviceOnly = "dku"
    case whenPasscodeSetThisDeviceOnly = "akpu"

    /// The default for new items of a class, when the add names none: `ak`, but certificates
    /// are readable always (`dk`).
    static func defaultValue(for itemClass: ItemClass) -> Accessibility {
        itemClass == .certificate ? .always : .whenUnlocked
    }

    /// When the item's key is available.
    var protectionClass: ProtectionClass {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: .whenUnlocked
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: .afterFirstUnlock
        case .always, .alwaysThisDeviceOnly: .always
        }
    }

    /// The values whose keys an unlock opens: classes A and C.
    static let lockedClasses = allCases.filter { $0.protectionClass != .always }

    /// Items bound to this machine: they never leave it in an export.
    package var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlocked, .afterFirstUnlock, .always: false
        default: true
        }
    }
}

/// The protection classes of the data-protection keychain: when their keys are available.
enum ProtectionClass: Sendable, Hashable {
    /// Class A: while the keychain is unlocked.
    case whenUnlocked
    /// Class C: from the keychain's first unlock since the machine started.
    case afterFirstUnlock
    /// Class D: always.
    case always
}
