import Foundation
import Keychain
import Security
import Testing
import TestSupport

@Suite struct InternetPasswordTests {
    let keychainFiles = PrivateKeychain()

    @Test func savedItemIsAnInternetPasswordWithAllItsAttributes() throws {
        try keychainFiles.run {
            let keychain = Keychain(server: "git.example.com", protocol: .https,
                                    authenticationType: .httpBasic, port: 8443, path: "/repo")
            try keychain.set("pat", forKey: "alice")
            #expect(try keychain.string(forKey: "alice") == "pat")
            #expect(keychain.server == "git.example.com")
            #expect(keychain.service == nil)

            let stored = try #require(keychainFiles.attributes([
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrServer as String: "git.example.com",
                kSecAttrAccount as String: "alice",
            ]).attributes)
            #expect(stored[kSecAttrProtocol as String] as? String == "htps")
            #expect(stored[kSecAttrAuthenticationType as String] as? String == "http")
            #expect((stored[kSecAttrPort as String] as? NSNumber)?.intValue == 8443)
            #expect(stored[kSecAttrPath as String] as? String == "/repo")
        }
    }

    /// Protocol, port and path are part of an internet password's primary key: another
    /// value of any of them is another item.
    @Test func otherProtocolPortOrPathAreOtherItems() throws {
        try keychainFiles.run {
            let https = Keychain(server: "example.com", protocol: .https)
            try https.set("a", forKey: "u")
            #expect(try Keychain(server: "example.com", protocol: .http).contains("u") == false)
            #expect(try Keychain(server: "example.com", protocol: .https, port: 8443).contains("u") == false)
            #expect(try Keychain(server: "example.com", protocol: .https, path: "/x").contains("u") == false)
            // An absent port is port 0: the same key.
            #expect(try Keychain(server: "example.com", protocol: .https, port: 0).string(forKey: "u") == "a")
        }
    }

    @Test(arguments: [-1, 65536, Int.max])
    func portOutsideTheRangeIsAParamError(port: Int) throws {
        try keychainFiles.run { () throws in
            let keychain = Keychain(server: "example.com", protocol: .ssh, port: port)
            #expect(keychainError { try keychain.set("x", forKey: "u") }?.status == errSecParam)
            #expect(keychainError { _ = try keychain.string(forKey: "u") }?.status == errSecParam)
            #expect(keychainError { try keychain.removeAll() }?.status == errSecParam)
        }
    }
}
