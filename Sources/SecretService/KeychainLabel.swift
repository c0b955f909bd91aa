import KeychainCore
import Security

/// The collection's Label: the keychain's own label, kept in the keychain itself (sealed, see
/// `KeychainStore.label()`), so that it stays with the keychain when the provider restarts.
extension KeychainItems {
    /// The label set with ``setLabel(_:)``, else the keychain's name with a capital first
    /// letter (`Login`).
    func label() throws(BusFailure) -> String {
        if let label = try labelled({ (store) throws(KeychainError) in try store.label() }) { return label }
        return keychainName.prefix(1).uppercased() + keychainName.dropFirst()
    }

    func setLabel(_ label: String) throws(BusFailure) {
        try labelled { (store) throws(KeychainError) in try store.setLabel(label) }
    }

    /// Runs `body` on the keychain's store (the default one created on first use).
    private func labelled<Result>(_ body: (KeychainStore) throws(KeychainError) -> Result) throws(BusFailure) -> Result {
        do throws(KeychainError) {
            return try body(store())
        } catch .noSuchKeychain {
            throw .noSuchObject(SecretObject.collectionPath(name))
        } catch {
            throw .failed("the keychain's label: \(error)")
        }
    }
}
