import Foundation
import Security
import Testing

/// dump-keychain, and `--json` on find and dump.
@Suite struct DumpAndJSONTests {
    let keychainctl = Keychainctl()

    /// A generic and an internet password from keychainctl, a certificate and a key from
    /// another program.
    func fill() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "s3cr3t")
        try keychainctl("add-internet-password", "-a", "bob", "-s", "git.example.com", "-w", "tok")
        let certificate: OSStatus = keychainctl.asProgram("com.example.app") {
            SecItemAdd([
                kSecClass as String: kSecClassCertificate, kSecAttrCertificateType as String: 1,
                kSecAttrIssuer as String: "CN=Example CA", kSecAttrSerialNumber as String: "01",
                kSecAttrLabel as String: "Example cert", kSecValueData as String: Data([0x30, 0x82]),
            ] as CFDictionary, nil)
        }
        let key: OSStatus = keychainctl.asProgram("com.example.app") {
            SecItemAdd([
                kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
                kSecAttrApplicationTag as String: "com.example.key", kSecValueData as String: Data("k".utf8),
            ] as CFDictionary, nil)
        }
        #expect(certificate == errSecSuccess && key == errSecSuccess)
    }

    /// As `security dump-keychain` shows them: certificates by their record type, 0x80001000.
    @Test func dumpShowsABlockForEveryItemOfEveryClass() throws {
        try fill()
        let dump = try keychainctl("dump-keychain")
        #expect(dump.status == 0)
        let classes = dump.output.split(separator: "\n").filter { $0.hasPrefix("class: ") }
        #expect(classes == ["class: \"genp\"", "class: \"inet\"", "class: 0x80001000 ", "class: \"keys\""])
        #expect(dump.output.components(separatedBy: "keychain: \"\(keychainctl.loginPath)\"\nversion: 512\n").count == 5)
        #expect(dump.output.contains("    \"labl\"<blob>=\"Example cert\"\n"))
        #expect(dump.output.contains("    \"atag\"<blob>=\"com.example.key\"\n"))
        #expect(!dump.output.contains("data:"))
        #expect(!dump.output.contains("s3cr3t"))
    }

    @Test func dumpMinusDAddsTheData() throws {
        try fill()
        let dump = try keychainctl("dump-keychain", "-d")
        #expect(dump.status == 0)
        #expect(dump.output.contains("    \"type\"<uint32>=<NULL>\ndata:\n\"s3cr3t\"\n"))
        #expect(dump.output.contains("data:\n\"tok\"\n"))
        #expect(dump.output.contains("data:\n0x3082  \"0\\202\"\n"))
    }

    @Test func aDateNoCalendarShowsIsNullNotACrash() throws {
        let added: OSStatus = keychainctl.asProgram("com.example.app") {
            SecItemAdd([
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: "far",
                kSecAttrStartDate as String: Date(timeIntervalSinceReferenceDate: 1e300),
            ] as CFDictionary, nil)
        }
        try #require(added == errSecSuccess)
        let dump = try keychainctl("dump-keychain")
        #expect(dump.status == 0)
        #expect(dump.output.contains("    \"sdat\"<timedate>=<NULL>\n"))
        let json = try keychainctl("dump-keychain", "--json")
        let items = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        #expect((items?.first?["attributes"] as? [String: Any])?["sdat"] is NSNull)
    }

    @Test func anEmptyKeychainDumpsNothing() throws {
        let dump = try keychainctl("dump-keychain")
        #expect(dump.status == 0)
        #expect(dump.output.isEmpty)
        #expect(try keychainctl("dump-keychain", "--json").output == "[\n\n]\n")
    }

    @Test func findMinusMinusJSONPrintsTheItemWithoutItsPassword() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "s3cr3t", "-j", "note")
        let found = try keychainctl("find-generic-password", "-a", "alice", "--json")
        #expect(found.status == 0)
        #expect(!found.output.contains("s3cr3t"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [String: Any])
        #expect(object["keychain"] as? String == keychainctl.loginPath)
        #expect(object["class"] as? String == "genp")
        #expect(object["data"] == nil)
        let attributes = try #require(object["attributes"] as? [String: Any])
        #expect(attributes["acct"] as? String == "alice")
        #expect(attributes["svce"] as? String == "example.com")
        #expect(attributes["labl"] as? String == "example.com")
        #expect(attributes["icmt"] as? String == "note")
        #expect(attributes["agrp"] as? String == "keychainctl")
        #expect(attributes["pdmn"] as? String == "ak")
        #expect((attributes["sync"] as? NSNumber)?.intValue == 0)
        let created = try #require(attributes["cdat"] as? String)
        #expect(created.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
    }

    @Test func findMinusMinusJSONWithMinusGOrMinusWIncludesThePassword() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "s3cr3t")
        try keychainctl("add-generic-password", "-a", "bin", "-s", "example.com", "-X", "00ff")
        for flag in ["-g", "-w"] {
            let found = try keychainctl("find-generic-password", "-a", "alice", "--json", flag)
            let object = try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [String: Any]
            #expect(object?["data"] as? String == "s3cr3t")
            #expect(found.errors.isEmpty)
        }
        let binary = try keychainctl("find-generic-password", "-a", "bin", "--json", "-w")
        let object = try JSONSerialization.jsonObject(with: Data(binary.output.utf8)) as? [String: Any]
        #expect(object?["data"] as? [String: String] == ["hex": "00ff"])
    }

    @Test func dumpMinusMinusJSONIsAnArrayWithDataOnlyWithMinusD() throws {
        try fill()
        let dump = try keychainctl("dump-keychain", "--json")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [[String: Any]])
        #expect(items.compactMap { $0["class"] as? String } == ["genp", "inet", "cert", "keys"])
        #expect(items.allSatisfy { $0["data"] == nil })
        #expect((items[2]["attributes"] as? [String: Any])?["agrp"] as? String == "com.example.app")

        let withData = try keychainctl("dump-keychain", "--json", "-d")
        let full = try #require(try JSONSerialization.jsonObject(with: Data(withData.output.utf8)) as? [[String: Any]])
        #expect(full.map { $0["data"] as? String } == ["s3cr3t", "tok", nil, "k"])
        #expect(full[2]["data"] as? [String: String] == ["hex": "3082"])
    }
}
