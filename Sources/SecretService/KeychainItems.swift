import Foundation
import KeychainCore
import Security

/// The provider's Keychain Services calls on one keychain, a collection: Secret Service items
/// are its generic passwords, reached through the public `SecItem` API with
/// `kSecUseKeychain`.
///
/// The provider holds its own access group, where new items go, and keychainctl's (see
/// ``UserKeychains/forThisProcess()``). Other programs' groups stay out of reach.
struct KeychainItems: Sendable {
    /// The folder, groups and default keychain the calls run in.
    let environment: KeychainEnvironment
    /// The keychain, named in every call.
    let keychain: SecKeychain

    init(environment: KeychainEnvironment, name: String) {
        self.environment = environment
        keychain = SecKeychain(files: KeychainFiles(directory: environment.directory, name: name))
    }

    /// The default keychain's items, for an import.
    static func forThisProcess() -> KeychainItems {
        UserKeychains.forThisProcess().defaultItems()
    }

    /// The keychain's name, which names its collection.
    var name: String { keychain.files.name }

    /// Whether it is the default keychain, which is created on its first use; another
    /// keychain that is gone stays gone (its calls are NoSuchObject).
    var isDefault: Bool { keychain.files == environment.files }

    /// Whether the keychain's files are there: the default keychain is not until its first use.
    var exists: Bool { KeychainStore.exists(keychain.files) }

    /// The database file, for messages.
    var keychainPath: String { keychain.path }

    /// The object of the item `reference` names in this collection.
    func object(_ reference: Data) -> SecretObject { .item(collection: name, reference: reference) }

    /// The keychain's store, for what the `SecItem` API does not give (labels, locked searches).
    func store() throws(KeychainError) -> KeychainStore {
        try KeychainStore.shared(keychain.files, create: isDefault)
    }

    /// Every item whose attributes include all of `query`'s pairs.
    ///
    /// A query naming an attribute other than `service`, `account` and `username` is answered
    /// through the keychain's index of attribute pairs (``lookupPairConditions(_:)``), which
    /// opens only the items it finds; one of those three alone, through the keychain's service
    /// and account columns, which also find the items other keychain tools stored without a
    /// set. Either way each item found is compared on its sealed attributes. Synchronizable
    /// items are the collection's as much as the others: every search covers both.
    func search(_ query: ItemAttributes) throws(BusFailure) -> [StoredItem] {
        if let conditions = Self.lookupPairConditions(query) {
            return try opened(try pairMatches(conditions), matching: query)
        }
        return try searchByColumns(query)
    }

    /// SearchItems' answer: the items matching `query` while the keychain is unlocked; while it
    /// is locked, as locked, those the keychain's indexes alone show to match, so that a client
    /// unlocks them with a prompt and reads them. A query they cannot decide on a locked
    /// keychain is IsLocked; and so is every query when not `namingLocked()` (nothing can
    /// prompt: the client hears how to unlock instead), which is asked only then.
    ///
    /// A query with an attribute other than `service`, `account` and `username` is decided by
    /// the index of attribute pairs, unless the keychain holds items of an older format not
    /// indexed yet; one of only those three by the service and account columns
    /// (``lockedColumnMatches(_:)``).
    func searchSplittingLocked(_ query: ItemAttributes, namingLocked: () -> Bool) throws(BusFailure)
        -> (unlocked: [String], locked: [String])
    {
        let paths = { (references: [Data]) in references.map { object($0).path } }
        if let conditions = Self.lookupPairConditions(query) {
            let found = try pairMatches(conditions)
            do throws(BusFailure) {
                return (paths(try opened(found, matching: query).map(\.reference)), [])
            } catch where error.name == BusFailure.isLockedName {
                guard found.notIndexed.isEmpty, namingLocked() else { throw error }
                return ([], paths(found.references.map(\.data)))
            }
        }
        do throws(BusFailure) {
            return (paths(try searchByColumns(query).map(\.reference)), [])
        } catch where error.name == BusFailure.isLockedName {
            guard namingLocked(), let locked = try lockedColumnMatches(query) else { throw error }
            return ([], paths(locked))
        }
    }

    /// What the keychain's index of attribute pairs is searched by for `query`: for each of its
    /// pairs, the pairs an item may have to match it (``ItemAttributes/matches(_:)``); an
    /// `account` or `username` is met by either name. Nil for a query of only `service`,
    /// `account` and `username` (or none), which items stored without a set can match too.
    static func lookupPairConditions(_ query: ItemAttributes) -> [[LookupPair]]? {
        let accountNames = ["account", "username"]
        guard query.values.keys.contains(where: { $0 != "service" && !accountNames.contains($0) }) else { return nil }
        return query.values.map { name, value in
            accountNames.contains(name)
                ? accountNames.map { LookupPair(name: $0, value: value) }
                : [LookupPair(name: name, value: value)]
        }
    }

    /// The items whose indexed pairs meet `conditions`, found without opening any.
    private func pairMatches(_ conditions: [[LookupPair]]) throws(BusFailure) -> LookupPairMatches {
        do throws(KeychainError) {
            return try store().referencesByLookupPairs(
                conditions, by: CallerIdentity(accessGroups: environment.accessGroups))
        } catch .noSuchKeychain {
            throw .noSuchObject(SecretObject.collectionPath(name))
        } catch {
            throw .failed("cannot search the keychain: \(error)")
        }
    }

    /// The items the index found (and those not indexed yet), opened in one call and compared
    /// on their sealed attributes; those gone since the index was read are left out.
    private func opened(_ found: LookupPairMatches, matching query: ItemAttributes) throws(BusFailure) -> [StoredItem] {
        let references = (found.references + found.notIndexed).map(\.data)
        guard !references.isEmpty else { return [] }
        return try self.found([
            kSecClass as String: kSecClassGenericPassword,
            kSecUseKeychain as String: keychain,
            kSecMatchItemList as String: references,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
            kSecReturnPersistentRef as String: true,
        ]).filter { $0.attributes.matches(query) }
    }

    /// The items matching a query of only `service`, `account` and `username` (or none),
    /// through the keychain's service and account columns.
    private func searchByColumns(_ query: ItemAttributes) throws(BusFailure) -> [StoredItem] {
        var search: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecUseKeychain as String: keychain,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
            kSecReturnPersistentRef as String: true,
        ]
        // Narrowed by the keychain's indexed fields where the query fixes them: an item with
        // the attribute `service` has it as its service, and one with `account` as its account
        // (a `username` may be a plain attribute beside another account: not narrowed by).
        if let service = query.values["service"] { search[kSecAttrService as String] = service }
        if let account = query.values["account"] { search[kSecAttrAccount as String] = account }
        return try found(search).filter { $0.attributes.matches(query) }
    }

    /// The references of the items matching a query of only `service`, `account` and
    /// `username` found by the keychain's columns without opening them; nil when those do not
    /// decide it. Exact for `service` and `account` (an item's keychain service and account
    /// are those attributes, unless stand-ins, which no query of `secret-service:` values is
    /// taken to name); a `username` is searched as the account, so an item whose `username`
    /// is a plain attribute beside another account is not found while locked.
    private func lockedColumnMatches(_ query: ItemAttributes) throws(BusFailure) -> [Data]? {
        let values = query.values
        guard !values.values.contains(where: { $0.hasPrefix("secret-service:") }) else { return nil }
        if let account = values["account"], let username = values["username"], account != username { return nil }
        var attributes: [String: AttributeValue] = [:]
        if let service = values["service"] { attributes["svce"] = .string(service) }
        if let account = values["account"] ?? values["username"] { attributes["acct"] = .string(account) }
        do throws(KeychainError) {
            let references = try store().referencesByColumns(
                ItemQuery(itemClass: .genericPassword, attributes: attributes, synchronizable: .any, limit: .all),
                by: CallerIdentity(accessGroups: environment.accessGroups))
            return references?.map(\.data)
        } catch {
            throw .failed("cannot search the locked keychain: \(error)")
        }
    }

    /// The references of every item of the collection, found without opening any: what its
    /// `Items` property lists, also while the keychain is locked (as GNOME Keyring lists them).
    func allReferences() throws(BusFailure) -> [Data] {
        do throws(KeychainError) {
            let query = ItemQuery(itemClass: .genericPassword, synchronizable: .any, limit: .all)
            let caller = CallerIdentity(accessGroups: environment.accessGroups)
            guard let references = try store().referencesByColumns(query, by: caller) else {
                // A query of no attributes is decided by the columns: not reached.
                throw KeychainError.notAvailable("the keychain cannot list its items without opening them")
            }
            return references.map(\.data)
        } catch .noSuchKeychain {
            throw .noSuchObject(SecretObject.collectionPath(name))
        } catch {
            throw .failed("cannot list the keychain's items: \(error)")
        }
    }

    /// The item `reference` names, or nil when there is none.
    func item(_ reference: Data) throws(BusFailure) -> StoredItem? {
        try found([
            kSecClass as String: kSecClassGenericPassword,
            kSecUseKeychain as String: keychain,
            kSecValuePersistentRef as String: reference,
            kSecReturnAttributes as String: true,
            kSecReturnPersistentRef as String: true,
        ]).first
    }

    /// The secret of the item `reference` names and its content type, or nil when there is
    /// none. The caller zeroes the secret.
    func secret(of reference: Data) throws(BusFailure) -> (value: Data, contentType: String)? {
        var result: CFTypeRef?
        let status = call {
            SecItemCopyMatching([
                kSecClass as String: kSecClassGenericPassword,
                kSecUseKeychain as String: keychain,
                kSecValuePersistentRef as String: reference,
                kSecReturnData as String: true,
                kSecReturnAttributes as String: true,
            ] as CFDictionary, &result)
        }
        if status == errSecItemNotFound { return nil }
        try check(status, "SecItemCopyMatching")
        guard let entry = result as? [String: Any] else { throw .failed("the keychain returned no secret for the item") }
        // An empty secret comes back without v_Data, as Apple's attributes-and-data results do.
        let data = entry[kSecValueData as String] as? Data ?? Data()
        let stored = (entry[kSecAttrGeneric as String] as? Data).flatMap(ItemGenericData.init(encoded:))
        return (data, stored?.contentType ?? ItemGenericData.defaultContentType)
    }

    /// Adds an item whose secret has `contentType`; its reference. A duplicate (another item
    /// with the same `service` and `account` attributes, which name the keychain item) fails
    /// with a message saying so.
    func add(_ attributes: ItemAttributes, label: String, secret: Data,
             contentType: String = ItemGenericData.defaultContentType) throws(BusFailure) -> Data {
        var result: CFTypeRef?
        let status = writing(attributes, contentType: contentType) { fields in
            var item = fields
            item[kSecClass as String] = kSecClassGenericPassword
            item[kSecUseKeychain as String] = keychain
            item[kSecAttrLabel as String] = label
            item[kSecValueData as String] = secret
            item[kSecReturnPersistentRef as String] = true
            return SecItemAdd(item as CFDictionary, &result)
        }
        try check(status, "SecItemAdd", attributes: attributes)
        guard let reference = result as? Data else { throw .failed("the keychain returned no reference for the new item") }
        return reference
    }

    /// Changes the item `reference` names: its attributes (and so its keychain service and
    /// account), label, secret or the secret's content type, those given, in one call.
    ///
    /// A content type other than the item's own is kept in its `kSecAttrGeneric`
    /// (``ItemGenericData``); an item whose generic data another program wrote keeps
    /// `text/plain`, and asking for another fails before anything changes.
    /// `known` is the item as its caller just read it, which spares reading it again.
    func update(_ reference: Data, known: StoredItem? = nil, attributes: ItemAttributes? = nil, label: String? = nil,
                secret: Data? = nil, contentType: String? = nil) throws(BusFailure)
    {
        var generic: (attributes: ItemAttributes, contentType: String)?
        if attributes != nil || contentType != nil {
            let read = known == nil ? try item(reference) : known
            guard let current = read else { throw .noSuchObject(object(reference).path) }
            let wanted = contentType ?? current.contentType
            if attributes == nil, wanted == current.contentType {
                generic = nil
            } else if !current.genericDataIsOurs, wanted != ItemGenericData.defaultContentType {
                throw .notSupported("this item's generic data belongs to another program, so its content type stays "
                                    + "\(ItemGenericData.defaultContentType)")
            } else {
                generic = (attributes ?? current.attributes, wanted)
            }
        }
        let status = writing(generic?.attributes, contentType: generic?.contentType ?? ItemGenericData.defaultContentType) { fields in
            var changes = fields
            if let label { changes[kSecAttrLabel as String] = label }
            if let secret { changes[kSecValueData as String] = secret }
            return SecItemUpdate(query(naming: reference) as CFDictionary, changes as CFDictionary)
        }
        if status == errSecItemNotFound { throw .noSuchObject(object(reference).path) }
        try check(status, "SecItemUpdate", attributes: attributes)
    }

    /// Deletes the item `reference` names; false when there was none.
    func delete(_ reference: Data) throws(BusFailure) -> Bool {
        let status = call { SecItemDelete(query(naming: reference) as CFDictionary) }
        if status == errSecItemNotFound { return false }
        try check(status, "SecItemDelete")
        return true
    }

    // MARK: -

    func call(_ body: () -> OSStatus) -> OSStatus {
        KeychainEnvironment.withValue(environment, operation: body)
    }

    private func query(naming reference: Data) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecUseKeychain as String: keychain,
         kSecValuePersistentRef as String: reference]
    }

    /// Runs `write` on the keychain with the fields that hold `attributes` (none when nil);
    /// when those fields are stand-ins that another item of the same set already has, once
    /// more with stand-ins of this item's own (``ItemAttributes/keychainService(copy:)``).
    /// Fields that are the set's own `service` and `account` are never changed.
    private func writing(_ attributes: ItemAttributes?, contentType: String, _ write: ([String: Any]) -> OSStatus)
        -> OSStatus
    {
        guard let attributes else { return call { write([:]) } }
        let generic = ItemGenericData(attributes: attributes, contentType: contentType)
        let status = call { write(fields(of: generic, copy: nil)) }
        guard status == errSecDuplicateItem, attributes.hasStandIn else { return status }
        let copy = UUID().uuidString.lowercased()
        return call { write(fields(of: generic, copy: copy)) }
    }

    /// The keychain fields that hold `generic`, for the first item of that set (`copy` nil)
    /// or a further one.
    private func fields(of generic: ItemGenericData, copy: String?) -> [String: Any] {
        [
            kSecAttrService as String: generic.attributes.keychainService(copy: copy),
            kSecAttrAccount as String: generic.attributes.keychainAccount(copy: copy),
            kSecAttrGeneric as String: generic.encoded,
        ]
    }

    private func found(_ search: [String: Any]) throws(BusFailure) -> [StoredItem] {
        var result: CFTypeRef?
        let status = call { SecItemCopyMatching(search as CFDictionary, &result) }
        if status == errSecItemNotFound { return [] }
        try check(status, "SecItemCopyMatching")
        let entries: [[String: Any]]
        if let list = result as? [[String: Any]] {
            entries = list
        } else if let one = result as? [String: Any] {
            entries = [one]
        } else {
            throw .failed("the keychain returned no attributes")
        }
        return entries.compactMap { entry in
            guard let reference = entry[kSecValuePersistentRef as String] as? Data else { return nil }
            // Another program may have written text or bytes of its own there.
            let stored = entry[kSecAttrGeneric as String]
            let generic = (stored as? Data).flatMap(ItemGenericData.init(encoded:))
            let storedNothing = stored == nil || (stored as? Data)?.isEmpty == true || (stored as? String)?.isEmpty == true
            let attributes = generic?.attributes
                ?? .derived(service: entry[kSecAttrService as String] as? String ?? "",
                            account: entry[kSecAttrAccount as String] as? String ?? "")
            return StoredItem(reference: reference, attributes: attributes,
                              contentType: generic?.contentType ?? ItemGenericData.defaultContentType,
                              genericDataIsOurs: generic != nil || storedNothing,
                              label: entry[kSecAttrLabel as String] as? String ?? "",
                              created: entry[kSecAttrCreationDate as String] as? Date,
                              modified: entry[kSecAttrModificationDate as String] as? Date)
        }
    }

    /// Turns a failing status into the D-Bus error a client understands.
    private func check(_ status: OSStatus, _ call: String, attributes: ItemAttributes? = nil) throws(BusFailure) {
        switch status {
        case errSecSuccess:
            return
        case errSecInteractionNotAllowed:
            throw .isLocked(name)
        case errSecNoSuchKeychain:
            throw .noSuchObject(SecretObject.collectionPath(name))
        case errSecDuplicateItem:
            let fields = attributes.map { " (service '\($0.keychainService)', account '\($0.keychainAccount)')" } ?? ""
            throw .failed("the keychain already holds an item of the same service and account\(fields); "
                          + "it keeps one item per service and account")
        default:
            let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
            throw .failed("\(call): \(text) (\(status))")
        }
    }
}
