import Keychain

/// The app's PIN, one keychain item kept through `KeychainItemWrapper` as the book's chapter
/// does: identifier `com.ICF.Keychain.pin`, account `pinIdentifer` (the chapter's spelling),
/// readable only while the device is unlocked.
struct PINLock {
    private let wrapper: KeychainItemWrapper

    init() throws(KeychainError) {
        wrapper = try KeychainItemWrapper(identifier: "com.ICF.Keychain.pin", accessGroup: nil)
    }

    /// Whether a PIN was chosen; the chapter's test is an empty stored value.
    var isSet: Bool {
        !storedPIN.isEmpty
    }

    /// Stores a new PIN. The account and accessibility go first, so the item has them from
    /// its first write (each change is written at once).
    func set(_ pin: String) throws(KeychainError) {
        try wrapper.setObject("pinIdentifer", forKey: .account)
        try wrapper.setObject(Accessibility.whenUnlocked, forKey: .accessible)
        try wrapper.setObject(pin, forKey: .valueData)
    }

    func accepts(_ pin: String) -> Bool {
        isSet && pin == storedPIN
    }

    /// Deletes the PIN: the next launch asks for a new one.
    func reset() throws(KeychainError) {
        try wrapper.resetKeychainItem()
    }

    static func isWellFormed(_ pin: String) -> Bool {
        (4...8).contains(pin.count) && pin.allSatisfy(\.isASCIIDigit)
    }

    private var storedPIN: String {
        wrapper.object(forKey: .valueData) as? String ?? ""
    }
}
