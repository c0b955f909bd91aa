import Foundation
import Security
import Testing
import TestSupport

/// Which attributes make two items the same item (a second add is errSecDuplicateItem)
/// and which do not.
@Suite("Primary keys")
struct PrimaryKeyTests {
    /// Two different values for an attribute, of the kind it takes.
    private static func values(for key: String) -> (Any, Any) {
        let numbers: Set<String> = [
            kSecAttrPort as String, kSecAttrProtocol as String, kSecAttrCreator as String, kSecAttrType as String,
            kSecAttrIsInvisible as String, kSecAttrIsNegative as String, kSecAttrCertificateType as String,
            kSecAttrCertificateEncoding as String, kSecAttrKeySizeInBits as String,
            kSecAttrEffectiveKeySize as String, kSecAttrIsPermanent as String, kSecAttrCanEncrypt as String,
            kSecAttrCanDecrypt as String, kSecAttrCanSign as String,
        ]
        let dates: Set<String> = [kSecAttrStartDate as String, kSecAttrEndDate as String]
        if numbers.contains(key) { return (1, 2) }
        if dates.contains(key) {
            return (Date(timeIntervalSinceReferenceDate: 100), Date(timeIntervalSinceReferenceDate: 200))
        }
        if key == kSecAttrKeyClass as String { return (kSecAttrKeyClassPublic, kSecAttrKeyClassPrivate) }
        if key == kSecAttrAccessible as String { return (kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAlways) }
        if key == kSecValueData as String { return (Data("one".utf8), Data("two".utf8)) }
        return ("one", "two")
    }

    /// The status of adding `base` with `key` set to a second value, after adding it with a first.
    private func secondAdd(base: [String: Any], key: String) -> OSStatus {
        let keychain = PrivateKeychain()
        let (first, second) = Self.values(for: key)
        #expect(keychain.add(base.with([key: first])) == errSecSuccess)
        return keychain.add(base.with([key: second]))
    }

    /// The status of adding `base` with `key` set to `value`, after adding it without `key`.
    private func addAfterAbsent(base: [String: Any], key: String, value: Any) -> OSStatus {
        let keychain = PrivateKeychain()
        var without = base
        without[key] = nil
        #expect(keychain.add(without) == errSecSuccess)
        return keychain.add(base.with([key: value]))
    }

    // MARK: Generic passwords

    private static var genpBase: [String: Any] { [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccount as String: "alice",
        kSecAttrService as String: "example.com",
    ] }

    @Test("genp: acct and svce are in the key", arguments: [kSecAttrAccount as String, kSecAttrService as String])
    func genericKeyAttributes(key: String) {
        #expect(secondAdd(base: Self.genpBase, key: key) == errSecSuccess)
    }

    @Test("genp: label, comment, description, accessibility, data and other attributes are not in the key",
          arguments: [kSecAttrLabel as String, kSecAttrComment as String, kSecAttrDescription as String,
                      kSecAttrAccessible as String, kSecValueData as String, kSecAttrGeneric as String,
                      kSecAttrCreator as String, kSecAttrType as String, kSecAttrIsInvisible as String,
                      kSecAttrIsNegative as String])
    func genericNonKeyAttributes(key: String) {
        #expect(secondAdd(base: Self.genpBase, key: key) == errSecDuplicateItem)
    }

    @Test("genp: agrp and sync are in the key")
    func genericGroupAndSync() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.genpBase) == errSecSuccess)
        #expect(keychain.add(Self.genpBase.with([kSecAttrAccessGroup as String: "com.example.shared"])) == errSecSuccess)
        #expect(keychain.add(Self.genpBase.with([kSecAttrSynchronizable as String: true])) == errSecSuccess)
        #expect(keychain.add(Self.genpBase.with([
            kSecAttrSynchronizable as String: true, kSecAttrAccessGroup as String: "com.example.shared",
        ])) == errSecSuccess)
        #expect(keychain.add(Self.genpBase.with([kSecAttrAccessGroup as String: "com.example.shared"]))
            == errSecDuplicateItem)
    }

    @Test("genp: an absent account equals acct = \"\", an absent service svce = \"\"",
          arguments: [kSecAttrAccount as String, kSecAttrService as String])
    func genericAbsentEqualsEmpty(key: String) {
        #expect(addAfterAbsent(base: Self.genpBase, key: key, value: "") == errSecDuplicateItem)
    }

    @Test("genp: an absent account is found by acct = \"\"")
    func genericAbsentAccountFoundByEmpty() {
        let keychain = PrivateKeychain()
        #expect(keychain.add([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"])
            == errSecSuccess)
        #expect(keychain.copyMatching([
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "s",
            kSecAttrAccount as String: "",
        ]).status == errSecSuccess)
    }

    @Test("genp: String \"x\" and Data \"x\" are the same key",
          arguments: [kSecAttrAccount as String, kSecAttrService as String])
    func genericStringEqualsData(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.genpBase.with([key: "x"])) == errSecSuccess)
        #expect(keychain.add(Self.genpBase.with([key: Data("x".utf8)])) == errSecDuplicateItem)
        #expect(keychain.copyMatching(Self.genpBase.with([key: Data("x".utf8)])).status == errSecSuccess)
    }

    @Test("genp: comparison is case-sensitive: \"A\" and \"a\" differ",
          arguments: [kSecAttrAccount as String, kSecAttrService as String])
    func genericCaseSensitive(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.genpBase.with([key: "A"])) == errSecSuccess)
        #expect(keychain.add(Self.genpBase.with([key: "a"])) == errSecSuccess)
        #expect(keychain.count(Self.genpBase.with([key: "A"])) == 1)
    }

    @Test("genp: comparison is on the UTF-8 bytes: composed and decomposed é differ")
    func genericByteExact() {
        let keychain = PrivateKeychain()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed) // equal as Swift Strings
        #expect(keychain.add(Self.genpBase.with([kSecAttrAccount as String: composed])) == errSecSuccess)
        #expect(keychain.add(Self.genpBase.with([kSecAttrAccount as String: decomposed])) == errSecSuccess)
        #expect(keychain.count(Self.genpBase.with([kSecAttrAccount as String: composed])) == 1)
    }

    // MARK: Internet passwords

    private static var inetBase: [String: Any] { [
        kSecClass as String: kSecClassInternetPassword,
        kSecAttrAccount as String: "alice",
        kSecAttrServer as String: "example.com",
        kSecAttrSecurityDomain as String: "realm",
        kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
        kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeHTMLForm,
        kSecAttrPort as String: 443,
        kSecAttrPath as String: "/login",
    ] }

    @Test("inet: acct, sdmn, srvr, ptcl, atyp, port and path are in the key",
          arguments: [kSecAttrAccount as String, kSecAttrSecurityDomain as String, kSecAttrServer as String,
                      kSecAttrProtocol as String, kSecAttrAuthenticationType as String, kSecAttrPort as String,
                      kSecAttrPath as String])
    func internetKeyAttributes(key: String) {
        #expect(secondAdd(base: Self.inetBase, key: key) == errSecSuccess)
    }

    @Test("inet: protocol codes and authentication types distinguish items")
    func internetProtocolCodes() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.inetBase) == errSecSuccess)
        #expect(keychain.add(Self.inetBase.with([kSecAttrProtocol as String: kSecAttrProtocolHTTP])) == errSecSuccess)
        #expect(keychain.add(Self.inetBase.with([
            kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeHTTPBasic,
        ])) == errSecSuccess)
        #expect(keychain.add(Self.inetBase.with([kSecAttrProtocol as String: kSecAttrProtocolHTTP])) == errSecDuplicateItem)
    }

    @Test("inet: label, comment, description, accessibility, data and other attributes are not in the key",
          arguments: [kSecAttrLabel as String, kSecAttrComment as String, kSecAttrDescription as String,
                      kSecAttrAccessible as String, kSecValueData as String, kSecAttrCreator as String,
                      kSecAttrType as String, kSecAttrIsInvisible as String])
    func internetNonKeyAttributes(key: String) {
        #expect(secondAdd(base: Self.inetBase, key: key) == errSecDuplicateItem)
    }

    @Test("inet: agrp and sync are in the key")
    func internetGroupAndSync() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.inetBase) == errSecSuccess)
        #expect(keychain.add(Self.inetBase.with([kSecAttrAccessGroup as String: "com.example.shared"])) == errSecSuccess)
        #expect(keychain.add(Self.inetBase.with([kSecAttrSynchronizable as String: true])) == errSecSuccess)
        #expect(keychain.add(Self.inetBase.with([kSecAttrSynchronizable as String: true])) == errSecDuplicateItem)
    }

    @Test("inet: absent text fields equal \"\"",
          arguments: [kSecAttrAccount as String, kSecAttrSecurityDomain as String, kSecAttrServer as String,
                      kSecAttrAuthenticationType as String, kSecAttrPath as String])
    func internetAbsentTextEqualsEmpty(key: String) {
        #expect(addAfterAbsent(base: Self.inetBase, key: key, value: "") == errSecDuplicateItem)
    }

    @Test("inet: absent number fields equal 0", arguments: [kSecAttrProtocol as String, kSecAttrPort as String])
    func internetAbsentNumberEqualsZero(key: String) {
        #expect(addAfterAbsent(base: Self.inetBase, key: key, value: 0) == errSecDuplicateItem)
    }

    @Test("inet: String \"x\" and Data \"x\" are the same key",
          arguments: [kSecAttrAccount as String, kSecAttrServer as String, kSecAttrPath as String])
    func internetStringEqualsData(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.inetBase.with([key: "x"])) == errSecSuccess)
        #expect(keychain.add(Self.inetBase.with([key: Data("x".utf8)])) == errSecDuplicateItem)
    }

    @Test("inet: \"A\" and \"a\" differ", arguments: [kSecAttrAccount as String, kSecAttrServer as String])
    func internetCaseSensitive(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.inetBase.with([key: "A"])) == errSecSuccess)
        #expect(keychain.add(Self.inetBase.with([key: "a"])) == errSecSuccess)
    }

    // MARK: Certificates

    private static var certBase: [String: Any] { [
        kSecClass as String: kSecClassCertificate,
        kSecAttrCertificateType as String: 3,
        kSecAttrIssuer as String: Data("issuer".utf8),
        kSecAttrSerialNumber as String: Data([0x01, 0x02]),
    ] }

    @Test("cert: ctyp, issr and slnr are in the key",
          arguments: [kSecAttrCertificateType as String, kSecAttrIssuer as String, kSecAttrSerialNumber as String])
    func certificateKeyAttributes(key: String) {
        #expect(secondAdd(base: Self.certBase, key: key) == errSecSuccess)
    }

    @Test("cert: label, subject, key IDs, encoding, accessibility and data are not in the key",
          arguments: [kSecAttrLabel as String, kSecAttrSubject as String, kSecAttrSubjectKeyID as String,
                      kSecAttrPublicKeyHash as String, kSecAttrCertificateEncoding as String,
                      kSecAttrAccessible as String, kSecValueData as String])
    func certificateNonKeyAttributes(key: String) {
        #expect(secondAdd(base: Self.certBase, key: key) == errSecDuplicateItem)
    }

    @Test("cert: agrp and sync are in the key")
    func certificateGroupAndSync() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.certBase) == errSecSuccess)
        #expect(keychain.add(Self.certBase.with([kSecAttrAccessGroup as String: "com.example.shared"])) == errSecSuccess)
        #expect(keychain.add(Self.certBase.with([kSecAttrSynchronizable as String: true])) == errSecSuccess)
        #expect(keychain.add(Self.certBase) == errSecDuplicateItem)
    }

    @Test("cert: absent issuer and serial equal \"\", absent type equals 0")
    func certificateDefaults() {
        #expect(addAfterAbsent(base: Self.certBase, key: kSecAttrIssuer as String, value: "") == errSecDuplicateItem)
        #expect(addAfterAbsent(base: Self.certBase, key: kSecAttrSerialNumber as String, value: Data())
            == errSecDuplicateItem)
        #expect(addAfterAbsent(base: Self.certBase, key: kSecAttrCertificateType as String, value: 0)
            == errSecDuplicateItem)
    }

    @Test("cert: String and Data issuer with the same bytes are the same key")
    func certificateStringEqualsData() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.certBase.with([kSecAttrIssuer as String: "CN=CA"])) == errSecSuccess)
        #expect(keychain.add(Self.certBase.with([kSecAttrIssuer as String: Data("CN=CA".utf8)])) == errSecDuplicateItem)
        #expect(keychain.add(Self.certBase.with([kSecAttrIssuer as String: "cn=ca"])) == errSecSuccess)
    }

    // MARK: Keys

    private static var keyBase: [String: Any] { [
        kSecClass as String: kSecClassKey,
        kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
        kSecAttrApplicationLabel as String: Data([0xAA, 0xBB]),
        kSecAttrApplicationTag as String: Data("com.example.tag".utf8),
        kSecAttrKeySizeInBits as String: 256,
    ] }

    @Test("keys: kcls, klbl, atag, crtr, type, bsiz, esiz, sdat and edat are in the key",
          arguments: [kSecAttrKeyClass as String, kSecAttrApplicationLabel as String,
                      kSecAttrApplicationTag as String, kSecAttrCreator as String, kSecAttrKeyType as String,
                      kSecAttrKeySizeInBits as String, kSecAttrEffectiveKeySize as String,
                      kSecAttrStartDate as String, kSecAttrEndDate as String])
    func keyKeyAttributes(key: String) {
        #expect(secondAdd(base: Self.keyBase, key: key) == errSecSuccess)
    }

    @Test("keys: RSA and EC key types are different items")
    func keyTypesDiffer() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.keyBase) == errSecSuccess)
        #expect(keychain.add(Self.keyBase.with([kSecAttrKeyType as String: kSecAttrKeyTypeRSA])) == errSecSuccess)
        #expect(keychain.add(Self.keyBase.with([kSecAttrKeyType as String: kSecAttrKeyTypeEC])) == errSecDuplicateItem)
    }

    @Test("keys: label, usage flags, permanence, accessibility and data are not in the key",
          arguments: [kSecAttrLabel as String, kSecAttrIsPermanent as String, kSecAttrCanEncrypt as String,
                      kSecAttrCanDecrypt as String, kSecAttrCanSign as String, kSecAttrAccessible as String,
                      kSecValueData as String])
    func keyNonKeyAttributes(key: String) {
        #expect(secondAdd(base: Self.keyBase, key: key) == errSecDuplicateItem)
    }

    @Test("keys: agrp and sync are in the key")
    func keyGroupAndSync() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.keyBase) == errSecSuccess)
        #expect(keychain.add(Self.keyBase.with([kSecAttrAccessGroup as String: "com.example.shared"])) == errSecSuccess)
        #expect(keychain.add(Self.keyBase.with([kSecAttrSynchronizable as String: true])) == errSecSuccess)
        #expect(keychain.add(Self.keyBase) == errSecDuplicateItem)
    }

    @Test("keys: absent klbl and atag equal \"\", absent numbers equal 0",
          arguments: [kSecAttrApplicationLabel as String, kSecAttrApplicationTag as String,
                      kSecAttrKeySizeInBits as String, kSecAttrKeyClass as String, kSecAttrKeyType as String])
    func keyDefaults(key: String) {
        let isText = key == kSecAttrApplicationLabel as String || key == kSecAttrApplicationTag as String
        #expect(addAfterAbsent(base: Self.keyBase, key: key, value: isText ? "" as Any : 0 as Any) == errSecDuplicateItem)
    }

    @Test("keys: String and Data application tags with the same bytes are the same key")
    func keyStringEqualsData() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(Self.keyBase.with([kSecAttrApplicationTag as String: "tag"])) == errSecSuccess)
        #expect(keychain.add(Self.keyBase.with([kSecAttrApplicationTag as String: Data("tag".utf8)]))
            == errSecDuplicateItem)
        #expect(keychain.add(Self.keyBase.with([kSecAttrApplicationTag as String: "TAG"])) == errSecSuccess)
    }
}
