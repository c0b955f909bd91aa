import Foundation
import Keychain
import Security
import Testing

@Suite struct ErrorTests {
    let keychainFiles = PrivateKeychain()

    /// Spec §2: the message is SecCopyErrorMessageString's.
    @Test(arguments: [errSecParam, errSecDuplicateItem, errSecInteractionNotAllowed, errSecDecode, OSStatus(-12345)])
    func messageIsTheStatusMessage(status: OSStatus) {
        let error = KeychainError(status: status)
        #expect(error.message == SecCopyErrorMessageString(status, nil).map { $0 as String })
        #expect(error.description.contains("\(status)"))
        #expect(error.description.contains(error.message))
    }

    @Test func failuresNeverShowTheSecret() throws {
        let secret = "hunter2-very-secret"
        try keychainFiles.run {
            let denied = Keychain(service: "s", accessGroup: "not-mine")
            let error = try #require(keychainError { try denied.set(secret, forKey: "k") })
            #expect(!error.description.contains(secret))
            #expect(!String(reflecting: error).contains(secret))

            let keychain = Keychain(service: "s")
            try keychain.set("not text", forKey: "k")
            try keychain.set(Data([0xFF]), forKey: "k")
            let decodeError = try #require(keychainError { _ = try keychain.string(forKey: "k") })
            #expect(decodeError.status == errSecDecode)
        }
    }

    @Test func itemDescriptionAndDumpHideTheSecret() throws {
        let secret = "hunter2-very-secret"
        try keychainFiles.run {
            let keychain = Keychain(service: "s")
            try keychain.set(secret, forKey: "k")
            let item = try #require(try keychain.allItems().first)
            #expect(try item.value(as: String.self) == secret)
            var dumped = ""
            dump(item, to: &dumped)
            for text in [item.description, String(reflecting: item), dumped, "\(item)"] {
                #expect(!text.contains(secret))
                #expect(!text.contains(Array(secret.utf8).map(String.init).joined(separator: ", ")))
            }
            #expect(item.description.contains("k"))
        }
    }
}
