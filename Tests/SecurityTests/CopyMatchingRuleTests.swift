import Foundation
import Security
import Testing
import TestSupport

/// SecItemCopyMatching: limits, no match, result shapes, matching, insertion order. (Locked
/// items are in KeychainManagementTests and LockingTests.)
@Suite("SecItemCopyMatching rules")
struct CopyMatchingRuleTests {
    private func keychainWith(accounts: [String]) -> PrivateKeychain {
        let keychain = PrivateKeychain()
        for account in accounts {
            let status = keychain.add(genericPassword(account: account).with([
                kSecValueData as String: Data("secret-\(account)".utf8),
            ]))
            #expect(status == errSecSuccess)
        }
        return keychain
    }

    private let allGeneric: [String: Any] = [kSecClass as String: kSecClassGenericPassword]

    // MARK: Limits

    @Test("The default limit is one: a single object, even with several matches")
    func defaultLimitIsOne() {
        let keychain = keychainWith(accounts: ["a", "b", "c"])
        let found = keychain.copyMatching(allGeneric.with([kSecReturnAttributes as String: true]))
        #expect(found.status == errSecSuccess)
        #expect(found.result as? [String: Any] != nil)
        #expect(found.result as? [Any] == nil)
        let data = keychain.copyMatching(allGeneric.with([kSecReturnData as String: true]))
        #expect(data.result as? Data != nil)
    }

    @Test("kSecMatchLimitAll returns an array, even of one element")
    func limitAllIsArrayOfOne() throws {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
        ]))
        #expect(found.status == errSecSuccess)
        let array = try #require(found.result as? [[String: Any]])
        #expect(array.count == 1)
        #expect(array.first?[kSecAttrAccount as String] as? String == "a")
    }

    @Test("An array of attributes cast to [[AnyHashable: Any]] finds an optional String key")
    func anyHashableLookupWithOptionalKey() throws {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
        ]))
        let attributes = try #require((found.result as? [[AnyHashable: Any]])?.first)
        // As SwiftKeychainWrapper declares it; on Darwin the lookup unwraps the optional.
        let account: String! = kSecAttrAccount as String
        #expect(attributes[account] as? String == "a")
    }

    @Test("A number limit other than 1 returns an array, even of one element", arguments: [2, 5, -1])
    func numberLimitIsArray(limit: Int) throws {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: limit,
            kSecReturnData as String: true,
        ]))
        let array = try #require(found.result as? [Data])
        #expect(array == [Data("secret-a".utf8)])
    }

    @Test("A limit of exactly 1 returns a single object")
    func limitOfOneIsSingle() {
        let keychain = keychainWith(accounts: ["a", "b"])
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: 1,
            kSecReturnPersistentRef as String: true,
        ]))
        #expect((found.result as? Data)?.count == 20)
    }

    @Test("A limit n caps the number of results")
    func limitCapsResults() {
        let keychain = keychainWith(accounts: ["a", "b", "c", "d"])
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: 3,
            kSecReturnData as String: true,
        ]))
        #expect((found.result as? [Data])?.count == 3)
    }

    // MARK: No match

    @Test("No match is errSecItemNotFound and the result stays nil, for every limit",
          arguments: [0, 1, 2])
    func noMatchLeavesResultNil(variant: Int) {
        let keychain = keychainWith(accounts: ["a"])
        let limit: Any = [kSecMatchLimitOne, kSecMatchLimitAll, 5 as Any][variant]
        let found = keychain.copyMatching(genericPassword(account: "nobody").with([
            kSecMatchLimit as String: limit,
            kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
        ]))
        #expect(found.status == errSecItemNotFound)
        #expect(found.result == nil)
    }

    @Test("An empty keychain gives errSecItemNotFound, never an empty array")
    func emptyKeychain() {
        let keychain = PrivateKeychain()
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
        ]))
        #expect(found.status == errSecItemNotFound)
        #expect(found.result == nil)
    }

    // MARK: No return keys

    @Test("No return keys gives success with a nil result")
    func noReturnKeys() {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(genericPassword(account: "a"))
        #expect(found.status == errSecSuccess)
        #expect(found.result == nil)
        let all = keychain.copyMatching(allGeneric.with([kSecMatchLimit as String: kSecMatchLimitAll]))
        #expect(all.status == errSecSuccess)
        #expect(all.result == nil)
    }

    @Test("A nil result pointer is legal")
    func nilResultPointer() {
        let keychain = keychainWith(accounts: ["a"])
        let query = genericPassword(account: "a") as CFDictionary
        #expect(keychain.run { SecItemCopyMatching(query, nil) } == errSecSuccess)
        let withReturn = genericPassword(account: "a").with([kSecReturnData as String: true]) as CFDictionary
        #expect(keychain.run { SecItemCopyMatching(withReturn, nil) } == errSecSuccess)
        let missing = genericPassword(account: "nobody") as CFDictionary
        #expect(keychain.run { SecItemCopyMatching(missing, nil) } == errSecItemNotFound)
    }

    // MARK: Result shapes

    @Test("Data only gives Data")
    func dataOnly() {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(genericPassword(account: "a").with([kSecReturnData as String: true]))
        #expect(found.result as? Data == Data("secret-a".utf8))
    }

    @Test("Persistent ref only gives 20-byte Data")
    func persistentReferenceOnly() {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(genericPassword(account: "a").with([kSecReturnPersistentRef as String: true]))
        #expect((found.result as? Data)?.count == 20)
    }

    @Test("Attributes give a dictionary without data or class")
    func attributesOnly() throws {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(genericPassword(account: "a").with([kSecReturnAttributes as String: true]))
        let dictionary = try #require(found.result as? [String: Any])
        #expect(dictionary[kSecAttrAccount as String] as? String == "a")
        #expect(dictionary[kSecValueData as String] == nil)
        #expect(dictionary[kSecClass as String] == nil)
    }

    @Test("Data + attributes give a dictionary with v_Data")
    func dataAndAttributes() throws {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(genericPassword(account: "a").with([
            kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
        ]))
        let dictionary = try #require(found.result as? [String: Any])
        #expect(dictionary[kSecValueData as String] as? Data == Data("secret-a".utf8))
        #expect(dictionary[kSecAttrAccount as String] as? String == "a")
        #expect(dictionary[kSecAttrService as String] as? String == "example.com")
        #expect(dictionary[kSecValuePersistentRef as String] == nil)
        #expect(dictionary[kSecClass as String] == nil)
    }

    @Test("Data + persistent ref give exactly {v_Data, v_PersistentRef}")
    func dataAndPersistentReference() throws {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(genericPassword(account: "a").with([
            kSecReturnPersistentRef as String: true,
            kSecReturnData as String: true,
        ]))
        let dictionary = try #require(found.result as? [String: Any])
        #expect(Set(dictionary.keys) == [kSecValueData as String, kSecValuePersistentRef as String])
        #expect(dictionary[kSecValueData as String] as? Data == Data("secret-a".utf8))
        #expect((dictionary[kSecValuePersistentRef as String] as? Data)?.count == 20)
    }

    @Test("`class` appears only with kSecReturnRef; a password's ref is its attributes plus class")
    func classOnlyWithReturnRef() throws {
        let keychain = keychainWith(accounts: ["a"])
        let found = keychain.copyMatching(genericPassword(account: "a").with([kSecReturnRef as String: true]))
        #expect(found.status == errSecSuccess)
        let dictionary = try #require(found.result as? [String: Any])
        #expect(dictionary[kSecClass as String] as? String == kSecClassGenericPassword as String)
        #expect(dictionary[kSecAttrAccount as String] as? String == "a")
        #expect(dictionary[kSecValueData as String] == nil)

        let withAttributes = keychain.copyMatching(genericPassword(account: "a").with([
            kSecReturnRef as String: true,
            kSecReturnAttributes as String: true,
        ]))
        let merged = try #require(withAttributes.result as? [String: Any])
        #expect(merged[kSecClass as String] as? String == kSecClassGenericPassword as String)

        #expect(keychain.add(specInternetPassword()) == errSecSuccess)
        let internet = keychain.copyMatching(specInternetPassword().with([kSecReturnRef as String: true]))
        #expect((internet.result as? [String: Any])?[kSecClass as String] as? String
            == kSecClassInternetPassword as String)
    }

    @Test("Shapes hold in arrays too")
    func shapesInArrays() throws {
        let keychain = keychainWith(accounts: ["a", "b"])
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnData as String: true,
            kSecReturnAttributes as String: true,
        ]))
        let array = try #require(found.result as? [[String: Any]])
        #expect(array.count == 2)
        for dictionary in array {
            let account = try #require(dictionary[kSecAttrAccount as String] as? String)
            #expect(dictionary[kSecValueData as String] as? Data == Data("secret-\(account)".utf8))
        }
    }

    // MARK: The attributes dictionary

    @Test("The attributes dictionary holds the set attributes and the maintained ones")
    func attributesDictionaryContents() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([
            kSecAttrLabel as String: "label",
            kSecAttrComment as String: "comment",
            kSecValueData as String: Data("s".utf8),
        ])) == errSecSuccess)
        let dictionary = try #require(keychain.attributes(genericPassword()).attributes)
        #expect(dictionary[kSecAttrLabel as String] as? String == "label")
        #expect(dictionary[kSecAttrComment as String] as? String == "comment")
        #expect(dictionary[kSecAttrAccount as String] as? String == "alice")
        #expect(dictionary[kSecAttrService as String] as? String == "example.com")
        #expect(dictionary[kSecAttrAccessGroup as String] as? String == "com.example.app")
        #expect(dictionary[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
        #expect(dictionary[kSecAttrCreationDate as String] is Date)
        #expect(dictionary[kSecAttrModificationDate as String] is Date)
        let sync = try #require(dictionary[kSecAttrSynchronizable as String] as? NSNumber)
        #expect(sync.intValue == 0)
    }

    @Test("Unset attributes are absent, not NSNull, and no persistent reference unless asked")
    func unsetAttributesAbsent() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let dictionary = try #require(keychain.attributes(genericPassword()).attributes)
        for key in [kSecAttrLabel, kSecAttrComment, kSecAttrDescription, kSecAttrGeneric, kSecAttrCreator,
                    kSecAttrType, kSecAttrIsInvisible, kSecAttrIsNegative] {
            #expect(dictionary[key as String] == nil, "\(key) should be absent")
        }
        #expect(!dictionary.values.contains { $0 is NSNull })
        #expect(dictionary[kSecValuePersistentRef as String] == nil)
        #expect(dictionary[kSecValueData as String] == nil)
    }

    @Test("acct is present even when the item was added without an account")
    func accountAlwaysPresent() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc"])
            == errSecSuccess)
        let dictionary = try #require(keychain.attributes(
            [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc"]).attributes)
        #expect(dictionary[kSecAttrAccount as String] != nil)
        #expect(dictionary[kSecAttrAccessGroup as String] as? String == "com.example.app")
        #expect(dictionary[kSecAttrAccessible as String] != nil)
        #expect(dictionary[kSecAttrCreationDate as String] is Date)
        #expect(dictionary[kSecAttrModificationDate as String] is Date)
        #expect(dictionary[kSecAttrSynchronizable as String] is NSNumber)
    }

    @Test("Results read with kSecAttrAccount as String, through Swift or NSDictionary")
    func resultsReadableWithStringKeys() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let found = keychain.copyMatching(genericPassword().with([kSecReturnAttributes as String: true]))
        let nsDictionary = try #require(found.result as? NSDictionary)
        #expect(nsDictionary[kSecAttrAccount as String] as? String == "alice")
        #expect(nsDictionary[kSecAttrAccount] as? String == "alice")
        let swiftDictionary = try #require(found.result as? [String: Any])
        #expect(swiftDictionary[kSecAttrAccount as String] as? String == "alice")
        // A Linux trap: an [AnyHashable: Any] read with a String key must still find the value.
        let anyHashable = try #require(found.result as? [AnyHashable: Any])
        #expect(anyHashable[kSecAttrAccount as String] as? String == "alice")
        #expect(anyHashable[kSecAttrService as String] as? String == "example.com")
        let all = keychain.copyMatching(genericPassword().with([
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]))
        let array = try #require(all.result as? NSArray)
        let items = try #require(array as? [[String: Any]])
        #expect(items.first?[kSecAttrAccount as String] as? String == "alice")
    }

    // MARK: Data with kSecMatchLimitAll

    @Test("kSecReturnData with kSecMatchLimitAll gives an array of Data")
    func dataWithLimitAll() throws {
        let keychain = keychainWith(accounts: ["a", "b", "c"])
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnData as String: true,
        ]))
        #expect(found.status == errSecSuccess)
        let array = try #require(found.result as? [Data])
        #expect(Set(array) == [Data("secret-a".utf8), Data("secret-b".utf8), Data("secret-c".utf8)])
    }

    // MARK: Equality matching

    @Test("Matching is equality only: no case folding, no prefixes")
    func equalityOnly() {
        let keychain = keychainWith(accounts: ["alice"])
        #expect(keychain.copyMatching(genericPassword(account: "ALICE")).status == errSecItemNotFound)
        #expect(keychain.copyMatching(genericPassword(account: "ali")).status == errSecItemNotFound)
        #expect(keychain.copyMatching(genericPassword(account: "alice ")).status == errSecItemNotFound)
        #expect(keychain.copyMatching(genericPassword(account: "alice", service: "EXAMPLE.com")).status
            == errSecItemNotFound)
        #expect(keychain.copyMatching(genericPassword(account: "alice")).status == errSecSuccess)
    }

    @Test("kSecMatchCaseInsensitive has no effect")
    func caseInsensitiveHasNoEffect() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword(account: "alice").with([kSecAttrLabel as String: "Label"]))
            == errSecSuccess)
        let insensitive = [kSecMatchCaseInsensitive as String: true]
        #expect(keychain.copyMatching(genericPassword(account: "ALICE").with(insensitive)).status == errSecItemNotFound)
        #expect(keychain.copyMatching(genericPassword().with(insensitive).with([kSecAttrLabel as String: "label"])).status
            == errSecItemNotFound)
        #expect(keychain.copyMatching(genericPassword(account: "alice").with(insensitive)).status == errSecSuccess)
    }

    @Test("Attributes outside the primary key match by equality too")
    func nonKeyAttributesMatch() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword(account: "a").with([kSecAttrLabel as String: "one"])) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "b").with([kSecAttrLabel as String: "two"])) == errSecSuccess)
        let found = keychain.attributes([
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrLabel as String: "two",
        ])
        #expect(found.attributes?[kSecAttrAccount as String] as? String == "b")
        #expect(keychain.count([kSecClass as String: kSecClassGenericPassword, kSecAttrLabel as String: "tw"]) == 0)
    }

    // MARK: No search on secrets

    @Test("kSecValueData in a search query is ignored")
    func valueDataIgnoredInSearch() {
        let keychain = keychainWith(accounts: ["a"])
        let wrong = keychain.copyMatching(genericPassword(account: "a").with([
            kSecValueData as String: Data("not the secret".utf8),
            kSecReturnData as String: true,
        ]))
        #expect(wrong.status == errSecSuccess)
        #expect(wrong.result as? Data == Data("secret-a".utf8))
        let right = keychain.copyMatching(genericPassword(account: "a").with([
            kSecValueData as String: Data("secret-a".utf8),
        ]))
        #expect(right.status == errSecSuccess)
        // It does not select: a wrong secret on a missing item is still not found.
        #expect(keychain.copyMatching(genericPassword(account: "zz").with([
            kSecValueData as String: Data("secret-a".utf8),
        ])).status == errSecItemNotFound)
    }

    // MARK: Protection classes (the parts that do not need locking)

    @Test("Items of every protection class are readable while nothing is locked",
          arguments: [kSecAttrAccessibleAfterFirstUnlock as String,
                      kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String,
                      kSecAttrAccessibleAlways as String, kSecAttrAccessibleAlwaysThisDeviceOnly as String,
                      kSecAttrAccessibleWhenUnlocked as String,
                      kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String])
    func everyClassReadable(accessible: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([
            kSecAttrAccessible as String: accessible,
            kSecValueData as String: Data("s".utf8),
        ])) == errSecSuccess)
        #expect(keychain.secret(genericPassword()) == Data("s".utf8))
        // Readable from another handle on the same keychain too.
        let again = keychain.asCaller(["com.example.app"])
        #expect(again.secret(genericPassword()) == Data("s".utf8))
    }

    // MARK: Insertion order

    @Test("Results of kSecMatchLimitAll come in insertion order")
    func insertionOrder() throws {
        let accounts = ["mango", "cherry", "zucchini", "apple", "kiwi", "banana"]
        let keychain = keychainWith(accounts: accounts)
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
        ]))
        let array = try #require(found.result as? [[String: Any]])
        #expect(array.map { $0[kSecAttrAccount as String] as? String } == accounts)
        let data = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnData as String: true,
        ]))
        #expect(data.result as? [Data] == accounts.map { Data("secret-\($0)".utf8) })
    }

    @Test("An update does not move an item in the insertion order")
    func orderAfterUpdate() throws {
        let keychain = keychainWith(accounts: ["first", "second", "third"])
        #expect(keychain.update(genericPassword(account: "first"), [kSecAttrLabel as String: "changed"]) == errSecSuccess)
        let found = keychain.copyMatching(allGeneric.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
        ]))
        let array = try #require(found.result as? [[String: Any]])
        #expect(array.map { $0[kSecAttrAccount as String] as? String } == ["first", "second", "third"])
    }
}
