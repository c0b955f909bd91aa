import Foundation
import Security

/// A key (a password, or better a hash of one) per identifier, in the keychain: the API of
/// Keith Harrison's UYLPasswordManager, in Swift.
///
/// ```swift
/// let manager = PasswordManager.shared
/// try manager.registerKey(password, forIdentifier: username)
/// let valid = try manager.validKey(attempt, forIdentifier: username)
/// try manager.deleteKey(forIdentifier: username)
/// ```
///
/// ## What it stores, as UYLPasswordManager does
/// Each identifier is one generic password (`kSecClassGenericPassword`) of the service
/// `"UYLPasswordManager"` (``service``), with the identifier's UTF-8 bytes as its account
/// (`kSecAttrAccount`) and generic attribute (`kSecAttrGeneric`), and the key's UTF-8 bytes
/// as its data. Keeping the original's names means an app that moves from
/// UYLPasswordManager on Apple platforms keeps reading the items it already has.
///
/// - A second ``registerKey(_:forIdentifier:)`` for an identifier replaces its key and
///   applies the current ``migrate`` and ``accessMode`` to the item, as the original's update does.
/// - ``validKey(_:forIdentifier:)`` with a nil key only checks that the identifier exists.
/// - ``purge()`` forgets the last key read, which the manager keeps in memory; it deletes
///   nothing from the keychain.
/// - `inGroup:` variants put the item in, and look only in, that access group; without a
///   group an item goes to the process's first group and searches cover all of its groups.
///
/// ## Where it differs, and why
/// - **Failures throw** ``KeychainError`` instead of being ignored (the original drops every
///   status), so `try` is needed. A missing identifier is not an error: ``key(forIdentifier:)``
///   returns nil, ``validKey(_:forIdentifier:)`` false. A group the process does not hold
///   throws `errSecMissingEntitlement` rather than reading as "not found".
/// - **Registering is an upsert** (update, else add), not "search, then add or update":
///   the original's search misses an item whose data is not UTF-8 and then fails to add a
///   duplicate; racing writers in other processes could make it fail the same way.
/// - **No sticky group.** The original never clears its remembered access group when given
///   nil, so after one `inGroup:` call the plain calls kept using that group. Here a call
///   without a group means no group.
/// - **Key comparison** takes constant time and compares UTF-8 bytes (as `-[NSString
///   isEqual:]` compares code units, with no Unicode normalization), not Swift's `==`.
/// - **The cache never answers a read.** In the original, every public call sets the
///   identifier and that clears the cached value, so each call reads the keychain again;
///   the value is only kept afterwards. This keeps the same behaviour on purpose: the
///   keychain is shared with other processes, and a cached key could validate a password
///   that another process has already changed.
/// - **No automatic purge.** The original purges when the app enters the background or the
///   device locks (UIKit notifications); Linux has neither, so call ``purge()`` yourself
///   when the key should no longer be in memory.
///
/// It is `Sendable`: properties and calls are guarded by a lock, so the ``shared`` instance
/// can be used from any thread or task. ``migrate`` and ``accessMode`` are read once at the
/// start of each call.
public final class PasswordManager: Sendable, CustomReflectable {
    /// The service (`kSecAttrService`) of every item: UYLPasswordManager's.
    public static let service = "UYLPasswordManager"

    private struct State: Sendable {
        var migrate = true
        var accessMode = AccessMode.whenUnlocked
        /// The last key read or registered.
        var cachedKey: String?
    }

    private let state = LockedState(State())

    private static let sharedInstance = LockedState<PasswordManager?>(nil)

    /// The shared instance, created on first use with the default settings.
    ///
    /// Like the original's `sharedInstance`, it is a convenience, not a singleton: other
    /// instances can be made with ``init()``.
    public static var shared: PasswordManager {
        sharedInstance.withLock { instance in
            if let instance { return instance }
            let created = PasswordManager()
            instance = created
            return created
        }
    }

    /// Releases the shared instance; the next use of ``shared`` creates a new one with the
    /// default settings. Instances already obtained keep working.
    public static func dropShared() {
        sharedInstance.withLock { $0 = nil }
    }

    /// A manager with the defaults: ``migrate`` true, ``accessMode`` ``AccessMode/whenUnlocked``.
    public init() {}

    /// Whether items registered from now on may move to another device through an encrypted
    /// backup or export (true, the default) or stay on this one (false: the `ThisDeviceOnly`
    /// accessibility variants).
    public var migrate: Bool {
        get { state.withLock { $0.migrate } }
        set { state.withLock { $0.migrate = newValue } }
    }

    /// When items registered from now on can be read; ``AccessMode/whenUnlocked`` by default.
    public var accessMode: AccessMode {
        get { state.withLock { $0.accessMode } }
        set { state.withLock { $0.accessMode = newValue } }
    }

    /// The `kSecAttrAccessible` value that ``migrate`` and ``accessMode`` select now.
    public var accessibility: Accessibility {
        state.withLock { $0.accessMode.accessibility(migrate: $0.migrate) }
    }

    // MARK: - Keys

    /// Stores a key for an identifier, replacing any key it had, in the process's default
    /// access group. See ``registerKey(_:forIdentifier:inGroup:)``.
    public func registerKey(_ key: String, forIdentifier identifier: String) throws(KeychainError) {
        try registerKey(key, forIdentifier: identifier, inGroup: nil)
    }

    /// Stores a key for an identifier, replacing any key it had.
    ///
    /// The item gets the accessibility that ``migrate`` and ``accessMode`` select now, also
    /// when it already existed.
    ///
    /// - Parameters:
    ///   - key: The value to keep secret, stored as UTF-8; preferably a hash of a password.
    ///   - identifier: Names the item, for example a user name.
    ///   - group: The access group to store it in; nil for the process's default group.
    /// - Throws: ``KeychainError``; `errSecMissingEntitlement` for a group the process does not hold.
    public func registerKey(_ key: String, forIdentifier identifier: String, inGroup group: String?) throws(KeychainError) {
        let query = itemQuery(identifier: identifier, group: group)
        let changes: [String: Any] = [
            kSecValueData as String: Data(key.utf8),
            kSecAttrAccessible as String: accessibility.rawValue,
        ]
        try SecItemCalls.upsert(query, changes: changes, during: "registering a key")
        remember(key)
    }

    /// The key of an identifier in any of the process's access groups, or nil.
    /// See ``key(forIdentifier:inGroup:)``.
    public func key(forIdentifier identifier: String) throws(KeychainError) -> String? {
        try key(forIdentifier: identifier, inGroup: nil)
    }

    /// The key of an identifier.
    ///
    /// - Parameters:
    ///   - identifier: The identifier the key was registered for.
    ///   - group: The access group to look in; nil for all of the process's groups.
    /// - Returns: The key, or nil when the identifier has none.
    /// - Throws: ``KeychainError``: `errSecDecode` when the stored key is not UTF-8 text,
    ///   `errSecMissingEntitlement` for a group the process does not hold,
    ///   `errSecInteractionNotAllowed` while the item cannot be read.
    public func key(forIdentifier identifier: String, inGroup group: String?) throws(KeychainError) -> String? {
        // Every call reads the keychain, as the original in effect does (see the type's notes).
        forget()
        guard let data = try SecItemCalls.data(of: itemQuery(identifier: identifier, group: group),
                                               during: "reading a key")
        else { return nil }
        guard let key = String(data: data, encoding: .utf8) else {
            throw KeychainError(status: errSecDecode, reason: "the stored key is not UTF-8 text")
        }
        remember(key)
        return key
    }

    /// Whether an identifier has this key, in any of the process's access groups.
    /// See ``validKey(_:forIdentifier:inGroup:)``.
    public func validKey(_ key: String?, forIdentifier identifier: String) throws(KeychainError) -> Bool {
        try validKey(key, forIdentifier: identifier, inGroup: nil)
    }

    /// Whether an identifier has this key, or, for a nil key, has any key.
    ///
    /// The comparison looks at every byte whatever the outcome, so its duration does not
    /// tell how much of a wrong key was right. Keys compare by their UTF-8 bytes: text that
    /// only looks the same (a precomposed "é" and "e" with a combining accent) does not match.
    ///
    /// - Parameters:
    ///   - key: The key to check; nil to check only that the identifier exists (the stored
    ///     key is then not read).
    ///   - identifier: The identifier the key was registered for.
    ///   - group: The access group to look in; nil for all of the process's groups.
    /// - Returns: True when the identifier exists and, for a non-nil key, its key is `key`.
    /// - Throws: ``KeychainError``, as ``key(forIdentifier:inGroup:)``.
    public func validKey(_ key: String?, forIdentifier identifier: String, inGroup group: String?) throws(KeychainError) -> Bool {
        guard let key else {
            let query = itemQuery(identifier: identifier, group: group)
            switch try SecItemCalls.copyMatching(query, during: "searching for a key") {
            case .notFound: return false
            case .found: return true
            }
        }
        guard let stored = try self.key(forIdentifier: identifier, inGroup: group) else { return false }
        return ConstantTimeComparison.equals(stored.utf8, key.utf8)
    }

    /// Deletes the key of an identifier, in all of the process's access groups.
    /// See ``deleteKey(forIdentifier:inGroup:)``.
    @discardableResult
    public func deleteKey(forIdentifier identifier: String) throws(KeychainError) -> Bool {
        try deleteKey(forIdentifier: identifier, inGroup: nil)
    }

    /// Deletes the key of an identifier. Deleting one that does not exist is not an error.
    ///
    /// - Parameters:
    ///   - identifier: The identifier the key was registered for.
    ///   - group: The access group to delete from; nil for all of the process's groups.
    /// - Returns: Whether there was a key to delete.
    /// - Throws: ``KeychainError``; `errSecMissingEntitlement` for a group the process does not hold.
    @discardableResult
    public func deleteKey(forIdentifier identifier: String, inGroup group: String?) throws(KeychainError) -> Bool {
        forget()
        return try SecItemCalls.delete(itemQuery(identifier: identifier, group: group), during: "deleting a key")
    }

    /// Forgets the last key read or registered, so that it is no longer held in memory.
    /// The keychain's items are left as they are.
    public func purge() {
        forget()
    }

    /// Whether a key is held in memory; for tests of ``purge()``.
    var hasCachedKey: Bool {
        state.withLock { $0.cachedKey != nil }
    }

    /// The settings, never the cached key, so that `dump` and debuggers do not show it.
    public var customMirror: Mirror {
        state.withLock { state in
            Mirror(self, children: ["migrate": state.migrate, "accessMode": state.accessMode])
        }
    }

    // MARK: - Private

    /// The query for an identifier's item, as UYLPasswordManager builds it.
    private func itemQuery(identifier: String, group: String?) -> [String: Any] {
        let encodedIdentifier = Data(identifier.utf8)
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: Self.service,
            kSecAttrAccount as String: encodedIdentifier,
            kSecAttrGeneric as String: encodedIdentifier,
        ]
        if let group {
            query[kSecAttrAccessGroup as String] = group
        }
        return query
    }

    private func remember(_ key: String) {
        state.withLock { $0.cachedKey = key }
    }

    private func forget() {
        state.withLock { $0.cachedKey = nil }
    }
}
