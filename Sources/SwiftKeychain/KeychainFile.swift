/// A keychain file other than the default keychain, for a ``Keychain`` to read and write:
/// a database made by `keychainctl create-keychain` (Linux), `security create-keychain`
/// (macOS) or `SecKeychainCreate`.
///
/// ```swift
/// let ci = Keychain(service: "com.example.ci", file: KeychainFile(path: "/srv/ci/ci.keychain-db"))
/// ```
///
/// Every query of such a keychain names the file with `kSecUseKeychain`, opened with
/// `SecKeychainOpen`. The file must exist: operations on a missing one throw
/// ``KeychainError/noSuchKeychain``. Keychain files exist on Linux and macOS (the
/// file-based keychain) only; on other platforms operations throw ``KeychainError/param``.
public struct KeychainFile: Sendable, Hashable {
    /// The path as `SecKeychainOpen` takes it: a path to the database, or a bare name
    /// (`work`, `work.keychain-db`) for one in the user's keychains folder.
    public var path: String

    /// The keychain at a path, or of a name in the user's keychains folder.
    public init(path: String) {
        self.path = path
    }
}
