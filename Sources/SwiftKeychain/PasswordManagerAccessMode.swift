extension PasswordManager {
    /// When items written by a ``PasswordManager`` can be read: the three modes of
    /// UYLPasswordManager's `UYLPMAccessMode`.
    ///
    /// Together with ``PasswordManager/migrate`` it selects the item's `kSecAttrAccessible`
    /// exactly as UYLPasswordManager does:
    ///
    /// | mode | migrate true | migrate false |
    /// |---|---|---|
    /// | ``whenUnlocked`` | `kSecAttrAccessibleWhenUnlocked` | `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` |
    /// | ``afterFirstUnlock`` | `kSecAttrAccessibleAfterFirstUnlock` | `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` |
    /// | ``always`` | `kSecAttrAccessibleAlways` | `kSecAttrAccessibleAlwaysThisDeviceOnly` |
    public enum AccessMode: Sendable, Hashable, CaseIterable {
        /// Readable only while the keychain is unlocked (`UYLPMAccessibleWhenUnlocked`); the default.
        case whenUnlocked
        /// Readable from the first unlock until restart (`UYLPMAccessibleAfterFirstUnlock`);
        /// what background work needs.
        case afterFirstUnlock
        /// Always readable, even while locked (`UYLPMAccessibleAlways`).
        case always

        /// The accessibility this mode selects, with or without migration to other devices.
        func accessibility(migrate: Bool) -> Accessibility {
            switch self {
            case .whenUnlocked: migrate ? .whenUnlocked : .whenUnlockedThisDeviceOnly
            case .afterFirstUnlock: migrate ? .afterFirstUnlock : .afterFirstUnlockThisDeviceOnly
            case .always: migrate ? .always : .alwaysThisDeviceOnly
            }
        }
    }
}
