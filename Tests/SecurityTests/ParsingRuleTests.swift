import Foundation
import Security
import Testing
import TestSupport

/// How the four calls read their dictionaries.
@Suite("Parsing rules")
struct ParsingRuleTests {
    // MARK: The class

    @Test("A query without kSecClass is errSecParam in all four calls")
    func missingClassIsParam() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let noClass: [String: Any] = [kSecAttrAccount as String: "alice", kSecAttrService as String: "example.com"]
        #expect(keychain.add(noClass.with([kSecValueData as String: Data("x".utf8)])) == errSecParam)
        #expect(keychain.copyMatching(noClass).status == errSecParam)
        #expect(keychain.update(noClass, [kSecAttrLabel as String: "new"]) == errSecParam)
        #expect(keychain.delete(noClass) == errSecParam)
        // The item is still there: nothing was deleted by the classless delete.
        #expect(keychain.copyMatching(genericPassword()).status == errSecSuccess)
    }

    @Test("A kSecClass that is not a string is errSecParam",
          arguments: [0, 1, 2])
    func nonStringClassIsParam(kind: Int) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let badClass: Any = switch kind {
        case 0: 1
        case 1: Data("genp".utf8)
        default: NSNull()
        }
        let query = genericPassword().with([kSecClass as String: badClass])
        #expect(keychain.add(query) == errSecParam)
        #expect(keychain.copyMatching(query).status == errSecParam)
        #expect(keychain.update(query, [kSecAttrLabel as String: "new"]) == errSecParam)
        #expect(keychain.delete(query) == errSecParam)
    }

    @Test("An unknown class string is errSecNoSuchClass in all four calls")
    func unknownClassIsNoSuchClass() {
        let keychain = PrivateKeychain()
        let query = genericPassword().with([kSecClass as String: "abcd"])
        #expect(keychain.add(query) == errSecNoSuchClass)
        #expect(keychain.copyMatching(query).status == errSecNoSuchClass)
        #expect(keychain.update(query, [kSecAttrLabel as String: "new"]) == errSecNoSuchClass)
        #expect(keychain.delete(query) == errSecNoSuchClass)
        // Case matters: "GENP" is not a class.
        #expect(keychain.add(genericPassword().with([kSecClass as String: "GENP"])) == errSecNoSuchClass)
    }

    @Test("A persistent reference alone names the class")
    func persistentReferenceNamesClass() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        let found = keychain.copyMatching([
            kSecValuePersistentRef as String: reference,
            kSecReturnData as String: true,
        ])
        #expect(found.status == errSecSuccess)
        #expect(found.result as? Data == Data("s".utf8))
    }

    // MARK: Attributes of another class

    @Test("kSecAttrServer on a generic password is errSecNoSuchAttr in all four calls")
    func serverOnGenericPasswordIsNoSuchAttr() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let query = genericPassword().with([kSecAttrServer as String: "example.com"])
        #expect(keychain.add(genericPassword(account: "bob").with([kSecAttrServer as String: "example.com"]))
            == errSecNoSuchAttr)
        #expect(keychain.copyMatching(query).status == errSecNoSuchAttr)
        #expect(keychain.update(query, [kSecAttrLabel as String: "new"]) == errSecNoSuchAttr)
        #expect(keychain.update(genericPassword(), [kSecAttrServer as String: "example.com"]) == errSecNoSuchAttr)
        #expect(keychain.delete(query) == errSecNoSuchAttr)
        #expect(keychain.count(genericPassword(account: "bob")) == 0)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("kSecAttrApplicationTag on a certificate is errSecNoSuchAttr in all four calls")
    func applicationTagOnCertificateIsNoSuchAttr() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(specCertificate()) == errSecSuccess)
        let query = specCertificate().with([kSecAttrApplicationTag as String: "tag"])
        #expect(keychain.add(specCertificate(serial: "02").with([kSecAttrApplicationTag as String: "tag"]))
            == errSecNoSuchAttr)
        #expect(keychain.copyMatching(query).status == errSecNoSuchAttr)
        #expect(keychain.update(query, [kSecAttrLabel as String: "new"]) == errSecNoSuchAttr)
        #expect(keychain.delete(query) == errSecNoSuchAttr)
        #expect(keychain.count(specCertificate()) == 1)
    }

    @Test("Other attributes of the wrong class are errSecNoSuchAttr")
    func otherWrongClassAttributes() {
        let keychain = PrivateKeychain()
        // Service is a generic-password attribute, not an internet-password one.
        #expect(keychain.add(specInternetPassword(extra: [kSecAttrService as String: "svc"])) == errSecNoSuchAttr)
        // Port is an internet-password attribute.
        #expect(keychain.add(genericPassword().with([kSecAttrPort as String: 443])) == errSecNoSuchAttr)
        // An unknown four-character key.
        #expect(keychain.add(genericPassword().with(["zzzz": "x"])) == errSecNoSuchAttr)
        #expect(keychain.copyMatching(genericPassword().with(["zzzz": "x"])).status == errSecNoSuchAttr)
    }

    // MARK: Unknown keys

    @Test("Unknown r_, u_ and v_ keys are errSecParam", arguments: ["r_Bogus", "u_Bogus", "v_Bogus"])
    func unknownPrefixedKeysAreParam(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "bob").with([key: true])) == errSecParam)
        #expect(keychain.copyMatching(genericPassword().with([key: true])).status == errSecParam)
        #expect(keychain.update(genericPassword().with([key: true]), [kSecAttrLabel as String: "new"]) == errSecParam)
        #expect(keychain.delete(genericPassword().with([key: true])) == errSecParam)
        #expect(keychain.count(genericPassword(account: "bob")) == 0)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("Unknown m_ keys are ignored by SecItemCopyMatching")
    func unknownMatchKeyIgnoredBySearch() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let found = keychain.copyMatching(genericPassword().with([
            "m_Bogus": "anything",
            kSecReturnData as String: true,
        ]))
        #expect(found.status == errSecSuccess)
        #expect(found.result as? Data == Data("s".utf8))
    }

    @Test("Any m_ key in an update query is errSecParam, and nothing changes",
          arguments: ["m_Bogus", "m_CaseInsensitive", "m_Limit"])
    func matchKeyInUpdateIsParam(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "old"])) == errSecSuccess)
        let value: Any = key == "m_Limit" ? kSecMatchLimitOne : true
        #expect(keychain.update(genericPassword().with([key: value]), [kSecAttrLabel as String: "new"]) == errSecParam)
        #expect(keychain.attributes(genericPassword()).attributes?[kSecAttrLabel as String] as? String == "old")
    }

    @Test("Any m_ key in a delete query is errSecParam, and nothing is deleted",
          arguments: ["m_Bogus", "m_CaseInsensitive", "m_Limit"])
    func matchKeyInDeleteIsParam(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let value: Any = key == "m_Limit" ? kSecMatchLimitOne : true
        #expect(keychain.delete(genericPassword().with([key: value])) == errSecParam)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("A key that is neither 4 characters, class, nor m_/r_/u_/v_ is errSecParam",
          arguments: ["foo", "account", "x_Data", "acct1", ""])
    func unroutableKeysAreParam(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "bob").with([key: "x"])) == errSecParam)
        #expect(keychain.copyMatching(genericPassword().with([key: "x"])).status == errSecParam)
        #expect(keychain.delete(genericPassword().with([key: "x"])) == errSecParam)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("Known kSecUse* keys are accepted, and kSecUseDataProtectionKeychain is ignored")
    func knownUseKeysAccepted() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([
            kSecUseDataProtectionKeychain as String: true,
            kSecValueData as String: Data("s".utf8),
        ])) == errSecSuccess)
        let found = keychain.copyMatching(genericPassword().with([
            kSecUseDataProtectionKeychain as String: true,
            kSecUseOperationPrompt as String: "Authenticate",
            kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
            kSecReturnData as String: true,
        ]))
        #expect(found.status == errSecSuccess)
        #expect(found.result as? Data == Data("s".utf8))
        // nleg is not stored as an attribute.
        let attributes = keychain.attributes(genericPassword()).attributes
        #expect(attributes?[kSecUseDataProtectionKeychain as String] == nil)
    }

    // MARK: Return flags

    @Test("A kSecReturn* value that is not a boolean is errSecParam",
          arguments: [kSecReturnData as String, kSecReturnAttributes as String,
                      kSecReturnRef as String, kSecReturnPersistentRef as String])
    func nonBooleanReturnIsParam(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword().with([key: "true"])).status == errSecParam)
        #expect(keychain.copyMatching(genericPassword().with([key: NSNull()])).status == errSecParam)
        #expect(keychain.copyMatching(genericPassword().with([key: Data([1])])).status == errSecParam)
        #expect(keychain.add(genericPassword(account: "bob").with([key: "yes"])) == errSecParam)
        #expect(keychain.count(genericPassword(account: "bob")) == 0)
    }

    @Test("A number (not a boolean) for kSecReturnData is errSecParam")
    func numberReturnIsParam() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword().with([kSecReturnData as String: 1])).status == errSecParam)
        #expect(keychain.copyMatching(genericPassword().with([kSecReturnData as String: 2])).status == errSecParam)
    }

    @Test("Bool, kCFBooleanTrue and NSNumber(value: true) are all booleans")
    func booleanFormsAccepted() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        for value: Any in [true, kCFBooleanTrue as Any, NSNumber(value: true)] {
            let found = keychain.copyMatching(genericPassword().with([kSecReturnData as String: value]))
            #expect(found.status == errSecSuccess)
            #expect(found.result as? Data == Data("s".utf8))
        }
    }

    @Test("False equals absent")
    func falseEqualsAbsent() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let allFalse = keychain.copyMatching(genericPassword().with([
            kSecReturnData as String: false,
            kSecReturnAttributes as String: kCFBooleanFalse as Any,
            kSecReturnRef as String: false,
            kSecReturnPersistentRef as String: false,
        ]))
        #expect(allFalse.status == errSecSuccess)
        #expect(allFalse.result == nil)

        // Data false + attributes true is the same as attributes alone: no v_Data.
        let found = keychain.copyMatching(genericPassword().with([
            kSecReturnData as String: false,
            kSecReturnAttributes as String: true,
        ]))
        let attributes = found.result as? [String: Any]
        #expect(attributes != nil)
        #expect(attributes?[kSecValueData as String] == nil)
        #expect(attributes?[kSecAttrAccount as String] as? String == "alice")

        var result: CFTypeRef?
        #expect(keychain.add(genericPassword(account: "bob").with([kSecReturnData as String: false]),
                             result: &result) == errSecSuccess)
        #expect(result == nil)
    }

    // MARK: Value types

    static let genericTextAttributes = [
        kSecAttrAccount as String, kSecAttrService as String, kSecAttrLabel as String,
        kSecAttrDescription as String, kSecAttrComment as String, kSecAttrGeneric as String,
    ]

    @Test("Generic-password text attributes take String, Data or Number and come back in that type",
          arguments: genericTextAttributes, ["string", "data", "number"])
    func genericTextAttributeTypes(key: String, kind: String) throws {
        let keychain = PrivateKeychain()
        let value: Any = switch kind {
        case "string": "value"
        case "data": Data([0x76, 0x00, 0xFF])
        default: 42
        }
        var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
        item[key] = value
        #expect(keychain.add(item) == errSecSuccess)
        let attributes = try #require(keychain.attributes(item).attributes)
        let back = attributes[key]
        switch kind {
        case "string": #expect(back as? String == "value")
        case "data":
            #expect(back as? Data == Data([0x76, 0x00, 0xFF]))
            #expect(!(back is String))
        default:
            #expect((back as? NSNumber)?.intValue == 42)
            #expect(!(back is String))
        }
    }

    static let internetTextAttributes = [
        kSecAttrServer as String, kSecAttrSecurityDomain as String,
        kSecAttrAuthenticationType as String, kSecAttrPath as String,
    ]

    @Test("Internet-password text attributes take String, Data or Number and come back in that type",
          arguments: internetTextAttributes, ["string", "data", "number"])
    func internetTextAttributeTypes(key: String, kind: String) throws {
        let keychain = PrivateKeychain()
        let value: Any = switch kind {
        case "string": "value"
        case "data": Data("bytes".utf8)
        default: 7
        }
        var item: [String: Any] = [kSecClass as String: kSecClassInternetPassword, kSecAttrAccount as String: "a"]
        item[key] = value
        #expect(keychain.add(item) == errSecSuccess)
        let attributes = try #require(keychain.attributes(item).attributes)
        let back = attributes[key]
        switch kind {
        case "string": #expect(back as? String == "value")
        case "data": #expect(back as? Data == Data("bytes".utf8))
        default: #expect((back as? NSNumber)?.intValue == 7)
        }
    }

    @Test("kSecAttrApplicationTag takes String or Data and comes back in that type")
    func applicationTagTypes() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(specKey(tag: "string-tag")) == errSecSuccess)
        let tagData = Data("data-tag".utf8)
        #expect(keychain.add(specKey(label: "key-2").with([kSecAttrApplicationTag as String: tagData])) == errSecSuccess)
        let first = try #require(keychain.attributes(specKey(tag: "string-tag")).attributes)
        #expect(first[kSecAttrApplicationTag as String] as? String == "string-tag")
        let second = try #require(keychain.attributes(
            specKey(label: "key-2").with([kSecAttrApplicationTag as String: tagData])).attributes)
        #expect(second[kSecAttrApplicationTag as String] as? Data == tagData)
    }

    @Test("A Data account is found and comes back as Data")
    func dataAccountComesBackAsData() throws {
        let keychain = PrivateKeychain()
        let account = Data("alice".utf8)
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: account,
            kSecAttrService as String: "example.com",
        ]
        #expect(keychain.add(item) == errSecSuccess)
        let attributes = try #require(keychain.attributes(item).attributes)
        #expect(attributes[kSecAttrAccount as String] as? Data == account)
        #expect(attributes[kSecAttrService as String] as? String == "example.com")
    }

    @Test("Number attributes take Number or Bool",
          arguments: [kSecAttrPort as String, kSecAttrProtocol as String, kSecAttrType as String,
                      kSecAttrCreator as String, kSecAttrIsInvisible as String, kSecAttrIsNegative as String])
    func numberAttributesTakeNumberOrBool(key: String) throws {
        let keychain = PrivateKeychain()
        let first = specInternetPassword(account: "a", extra: [key: 1])
        let second = specInternetPassword(account: "b", extra: [key: true])
        #expect(keychain.add(first) == errSecSuccess)
        #expect(keychain.add(second) == errSecSuccess)
        let back = try #require(keychain.attributes(first).attributes?[key] as? NSNumber)
        #expect(back.intValue == 1)
        let backBool = try #require(keychain.attributes(second).attributes?[key] as? NSNumber)
        #expect(backBool.intValue == 1)
        // A different number does not match.
        #expect(keychain.copyMatching(specInternetPassword(account: "a", extra: [key: 2])).status == errSecItemNotFound)
    }

    @Test("kSecAttrProtocol takes four-character codes and numbers and returns the caller's type")
    func protocolTypes() throws {
        let keychain = PrivateKeychain()
        let https = specInternetPassword(account: "a", extra: [kSecAttrProtocol as String: kSecAttrProtocolHTTPS])
        let numeric = specInternetPassword(account: "b", extra: [kSecAttrProtocol as String: 443])
        #expect(keychain.add(https) == errSecSuccess)
        #expect(keychain.add(numeric) == errSecSuccess)
        #expect(keychain.attributes(https).attributes?[kSecAttrProtocol as String] as? String
            == kSecAttrProtocolHTTPS as String)
        #expect((keychain.attributes(numeric).attributes?[kSecAttrProtocol as String] as? NSNumber)?.intValue == 443)
        let http = specInternetPassword(account: "a", extra: [kSecAttrProtocol as String: kSecAttrProtocolHTTP])
        #expect(keychain.copyMatching(http).status == errSecItemNotFound)
    }

    @Test("Dates take Date only")
    func datesTakeDateOnly() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword().with([kSecAttrCreationDate as String: "2024-01-01"])).status
            == errSecParam)
        #expect(keychain.copyMatching(genericPassword().with([kSecAttrModificationDate as String: 0])).status
            == errSecParam)
        #expect(keychain.add(specKey(extra: [kSecAttrStartDate as String: 1_700_000_000])) == errSecParam)
        #expect(keychain.add(specKey(extra: [kSecAttrEndDate as String: "tomorrow"])) == errSecParam)
        let end = Date(timeIntervalSinceReferenceDate: 800_000_000)
        #expect(keychain.add(specKey(extra: [kSecAttrEndDate as String: end])) == errSecSuccess)
        let attributes = try #require(keychain.attributes(specKey()).attributes)
        #expect(attributes[kSecAttrEndDate as String] as? Date == end)
    }

    @Test("Values that cannot be converted are errSecParam")
    func unconvertibleValuesAreParam() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrAccount as String: Date()])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecAttrAccount as String: NSNull()])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: ["a", "b"]])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: ["k": "v"]])) == errSecParam)
        #expect(keychain.add(specInternetPassword(extra: [kSecAttrPort as String: Data([1])])) == errSecParam)
        #expect(keychain.add(specInternetPassword(extra: [kSecAttrPort as String: "not a port"])) == errSecParam)
        #expect(keychain.add(specInternetPassword(extra: [kSecAttrPort as String: 1.5])) == errSecParam)
        #expect(keychain.add(specInternetPassword(extra: [kSecAttrPort as String: Date()])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecAttrIsInvisible as String: NSNull()])) == errSecParam)
        #expect(keychain.count([kSecClass as String: kSecClassGenericPassword]) == 0)
        #expect(keychain.count([kSecClass as String: kSecClassInternetPassword]) == 0)
    }

    @Test("Unconvertible values are errSecParam in searches, updates and deletes too")
    func unconvertibleValuesInOtherCalls() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let bad = genericPassword().with([kSecAttrAccount as String: Date()])
        #expect(keychain.copyMatching(bad).status == errSecParam)
        #expect(keychain.update(bad, [kSecAttrLabel as String: "x"]) == errSecParam)
        #expect(keychain.update(genericPassword(), [kSecAttrLabel as String: Date()]) == errSecParam)
        #expect(keychain.update(genericPassword(), [kSecAttrLabel as String: NSNull()]) == errSecParam)
        #expect(keychain.delete(bad) == errSecParam)
        #expect(keychain.count(genericPassword()) == 1)
    }

    // MARK: kSecValueData

    @Test("kSecValueData that is a String or null is errSecParam in SecItemAdd")
    func valueDataMustBeDataInAdd() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: "secret"])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecValueData as String: NSNull()])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecValueData as String: 42])) == errSecParam)
        #expect(keychain.count(genericPassword()) == 0)
        #expect(keychain.add(genericPassword().with([kSecValueData as String: NSData(data: Data("s".utf8))]))
            == errSecSuccess)
        #expect(keychain.secret(genericPassword()) == Data("s".utf8))
    }

    @Test("kSecValueData that is a String or null is errSecParam in SecItemUpdate")
    func valueDataMustBeDataInUpdate() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("old".utf8)])) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [kSecValueData as String: "new"]) == errSecParam)
        #expect(keychain.update(genericPassword(), [kSecValueData as String: NSNull()]) == errSecParam)
        #expect(keychain.secret(genericPassword()) == Data("old".utf8))
        #expect(keychain.update(genericPassword(), [kSecValueData as String: Data("new".utf8)]) == errSecSuccess)
        #expect(keychain.secret(genericPassword()) == Data("new".utf8))
    }

    // MARK: kSecMatchLimit

    private func threeItems() -> PrivateKeychain {
        let keychain = PrivateKeychain()
        for account in ["a", "b", "c"] {
            _ = keychain.add(genericPassword(account: account).with([kSecValueData as String: Data(account.utf8)]))
        }
        return keychain
    }

    private var allGeneric: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true]
    }

    @Test("kSecMatchLimitOne gives one object, kSecMatchLimitAll every match")
    func limitOneAndAll() {
        let keychain = threeItems()
        let one = keychain.copyMatching(allGeneric.with([kSecMatchLimit as String: kSecMatchLimitOne]))
        #expect(one.status == errSecSuccess)
        #expect(one.result as? Data != nil)
        let all = keychain.copyMatching(allGeneric.with([kSecMatchLimit as String: kSecMatchLimitAll]))
        #expect(all.status == errSecSuccess)
        #expect((all.result as? [Data])?.count == 3)
    }

    @Test("A number limit: 1 is one object, -1 is no limit, n is at most n")
    func numericLimits() {
        let keychain = threeItems()
        let one = keychain.copyMatching(allGeneric.with([kSecMatchLimit as String: 1]))
        #expect(one.result as? Data != nil)
        let unlimited = keychain.copyMatching(allGeneric.with([kSecMatchLimit as String: -1]))
        #expect((unlimited.result as? [Data])?.count == 3)
        let two = keychain.copyMatching(allGeneric.with([kSecMatchLimit as String: 2]))
        #expect((two.result as? [Data])?.count == 2)
        let many = keychain.copyMatching(allGeneric.with([kSecMatchLimit as String: 10]))
        #expect((many.result as? [Data])?.count == 3)
    }

    @Test("Any other kSecMatchLimit value is errSecParam", arguments: 0..<7)
    func badLimitsAreParam(index: Int) {
        let keychain = threeItems()
        let value: Any = [
            0, -2, true, "m_LimitSome", "1", 1.5, NSNull(),
        ][index]
        #expect(keychain.copyMatching(allGeneric.with([kSecMatchLimit as String: value])).status == errSecParam)
    }

    // MARK: kSecAttrAccessible

    static let accessibleValues = [
        kSecAttrAccessibleWhenUnlocked as String, kSecAttrAccessibleAfterFirstUnlock as String,
        kSecAttrAccessibleAlways as String, kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String,
        kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String,
        kSecAttrAccessibleAlwaysThisDeviceOnly as String,
    ]

    @Test("The kSecAttrAccessible values are accepted on add and come back", arguments: accessibleValues)
    func accessibleValuesAccepted(value: String) throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrAccessible as String: value])) == errSecSuccess)
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        #expect(attributes[kSecAttrAccessible as String] as? String == value)
        #expect(keychain.count(genericPassword().with([kSecAttrAccessible as String: value])) == 1)
    }

    @Test("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly is a valid value in a search")
    func passcodeSetIsValid() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let query = genericPassword().with([kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly])
        #expect(keychain.copyMatching(query).status == errSecItemNotFound)
    }

    @Test("Any other kSecAttrAccessible value is errSecParam", arguments: ["zz", "AK", "", "akx"])
    func badAccessibleIsParam(value: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "bob").with([kSecAttrAccessible as String: value])) == errSecParam)
        #expect(keychain.copyMatching(genericPassword().with([kSecAttrAccessible as String: value])).status == errSecParam)
        #expect(keychain.update(genericPassword(), [kSecAttrAccessible as String: value]) == errSecParam)
        #expect(keychain.delete(genericPassword().with([kSecAttrAccessible as String: value])) == errSecParam)
        #expect(keychain.count(genericPassword()) == 1)
        #expect(keychain.count(genericPassword(account: "bob")) == 0)
    }

    @Test("A non-string kSecAttrAccessible is errSecParam")
    func nonStringAccessibleIsParam() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrAccessible as String: 1])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecAttrAccessible as String: Data("ak".utf8)])) == errSecParam)
        #expect(keychain.count(genericPassword()) == 0)
    }

    // MARK: Access groups the caller does not hold

    @Test("An access group the caller does not hold is errSecMissingEntitlement in every call")
    func foreignAccessGroupIsMissingEntitlement() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let foreign = [kSecAttrAccessGroup as String: "com.other.app"]
        #expect(errSecMissingEntitlement == -34018)
        #expect(keychain.add(genericPassword(account: "bob").with(foreign)) == errSecMissingEntitlement)
        #expect(keychain.copyMatching(genericPassword().with(foreign)).status == errSecMissingEntitlement)
        #expect(keychain.update(genericPassword().with(foreign), [kSecAttrLabel as String: "x"]) == errSecMissingEntitlement)
        #expect(keychain.update(genericPassword(), foreign) == errSecMissingEntitlement)
        #expect(keychain.delete(genericPassword().with(foreign)) == errSecMissingEntitlement)
        #expect(keychain.count(genericPassword(account: "bob")) == 0)
        #expect(keychain.attributes(genericPassword()).attributes?[kSecAttrAccessGroup as String] as? String
            == "com.example.app")
    }

    @Test("The other caller is refused the groups it does not hold, even where items exist")
    func otherCallerRefused() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let other = keychain.asCaller(["com.other.app"])
        let appGroup = genericPassword().with([kSecAttrAccessGroup as String: "com.example.app"])
        #expect(other.copyMatching(appGroup).status == errSecMissingEntitlement)
        #expect(other.delete(appGroup) == errSecMissingEntitlement)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("An explicit group the caller holds is accepted")
    func heldGroupAccepted() {
        let keychain = PrivateKeychain()
        let shared = genericPassword().with([kSecAttrAccessGroup as String: "com.example.shared"])
        #expect(keychain.add(shared) == errSecSuccess)
        #expect(keychain.copyMatching(shared).status == errSecSuccess)
        #expect(keychain.delete(shared) == errSecSuccess)
    }
}
