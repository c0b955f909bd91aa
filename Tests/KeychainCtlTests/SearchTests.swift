import Foundation
import Security
import Testing

/// `search name=value ...`: the password items whose attributes equal those given, in every
/// access group, as `secret-tool search` lists them; secrets only when asked for.
@Suite struct SearchTests {
    let keychainctl = Keychainctl()

    /// alice at example.com in an app's group, bob at example.com and alice at other.org in
    /// keychainctl's, and alice's internet password for example.com.
    func fill() throws {
        let added = keychainctl.asProgram("com.example.app") {
            SecItemAdd([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
                kSecAttrService as String: "example.com", kSecValueData as String: Data("app secret".utf8),
            ] as CFDictionary, nil)
        }
        #expect(added == errSecSuccess)
        try keychainctl("add-generic-password", "-a", "bob", "-s", "example.com", "-w", "bob secret")
        try keychainctl("add-generic-password", "-a", "alice", "-s", "other.org", "-w", "other secret", "-j", "a note")
        try keychainctl("add-internet-password", "-a", "alice", "-s", "example.com", "-r", "htps", "-P", "443",
                        "-w", "web secret")
    }

    /// The (class, account, service or server) of each block printed, in order.
    func blocks(_ output: String) -> [String] {
        output.components(separatedBy: "keychain: \"").dropFirst().map { block in
            let lines = block.split(separator: "\n").map(String.init)
            let value = { (prefix: String) in lines.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } ?? "-" }
            return [value("class: "), value("    \"acct\"<blob>="),
                    value("    \"svce\"<blob>=") == "-" ? value("    \"srvr\"<blob>=") : value("    \"svce\"<blob>=")]
                .joined(separator: " ")
        }
    }

    @Test("Attributes by name select the items that have them all, in every access group, without secrets")
    func searchByServiceAndAccount() throws {
        try fill()
        let one = try keychainctl("search", "service=example.com", "account=alice")
        #expect(one.status == 0)
        #expect(blocks(one.output) == ["\"genp\" \"alice\" \"example.com\""])
        #expect(one.output.hasPrefix("keychain: \"\(keychainctl.loginPath)\"\nversion: 512\nclass: \"genp\"\n"))
        #expect(!one.output.contains("app secret"))

        let alice = try keychainctl("search", "account=alice")
        #expect(blocks(alice.output) == [
            "\"genp\" \"alice\" \"example.com\"", "\"genp\" \"alice\" \"other.org\"", "\"inet\" \"alice\" \"example.com\"",
        ])
        #expect(!alice.output.contains("secret"))
        // Four-character codes name the same attributes; server, port and protocol search internet passwords.
        #expect(blocks(try keychainctl("search", "acct=alice", "icmt=a note").output)
            == ["\"genp\" \"alice\" \"other.org\""])
        #expect(blocks(try keychainctl("search", "server=example.com", "port=443", "protocol=htps").output)
            == ["\"inet\" \"alice\" \"example.com\""])
        #expect(blocks(try keychainctl("search").output).count == 4)
    }

    @Test("-d shows the secrets, --json prints an array, --access-group narrows to one group")
    func secretsJSONAndGroups() throws {
        try fill()
        let withData = try keychainctl("search", "service=example.com", "account=bob", "-d")
        #expect(withData.output.contains("bob secret"))

        let json = try keychainctl("search", "service=example.com", "--json")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(array.allSatisfy { $0["data"] == nil })
        let groups = array.compactMap { ($0["attributes"] as? [String: Any])?["agrp"] as? String }
        #expect(Set(groups) == ["com.example.app", "keychainctl"])
        let jsonData = try keychainctl("search", "account=bob", "--json", "-d")
        let bob = try #require(try JSONSerialization.jsonObject(with: Data(jsonData.output.utf8)) as? [[String: Any]])
        #expect(bob.first?["data"] as? String == "bob secret")

        let app = try keychainctl("search", "account=alice", "--access-group", "com.example.app")
        #expect(blocks(app.output) == ["\"genp\" \"alice\" \"example.com\""])
    }

    @Test("No match exits 44 with nothing on standard output; a named keychain must exist")
    func noMatchAndMissingKeychain() throws {
        try fill()
        let none = try keychainctl("search", "account=carol")
        #expect(none.status == 44)
        #expect(none.output.isEmpty)
        #expect(none.errors == "keychainctl: search: The specified item could not be found in the keychain.\n")
        let missing = try keychainctl("search", "-k", "work", "account=alice")
        #expect(missing.status == 50)
    }

    @Test("An argument that is not a known name=value is a usage error that says which names exist")
    func badArgumentsAreUsageErrors() throws {
        let cases: [(String, String)] = [
            ("colour=red", "'colour' is not an attribute search knows; it takes account, service, server"),
            ("alice", "'alice' is not name=value"),
            ("port=https", "a port is a number from 0 to 65535"),
            ("protocol=https", "protocol is a four-character code, such as htps"),
            ("atyp=default", "authtype is a four-character code, such as dflt"),
        ]
        for (argument, message) in cases {
            let outcome = try keychainctl("search", argument)
            #expect(outcome.status == 2, "\(argument)")
            #expect(outcome.errors.contains(message), "\(argument): \(outcome.errors)")
            #expect(outcome.output.isEmpty)
        }
        let both = try keychainctl("search", "service=a", "server=b")
        #expect(both.status == 2)
        #expect(both.errors.contains("No item has both"))
    }
}
