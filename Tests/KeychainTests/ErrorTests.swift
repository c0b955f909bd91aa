import Foundation
import Keychain
import Security
import Testing
import TestSupport

@Suite struct ErrorTests {
    let keychainFiles = PrivateKeychain()

    /// The message is SecCopyErrorMessageString's, Apple's text for the status.
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

    /// A failure is matched by name, `catch KeychainError.missingEntitlement`, with no cast
    /// and no Security constant: the calls throw `KeychainError` (typed throws), and each
    /// named code is a pattern.
    @Test func failuresAreMatchedByNameInCatchClauses() throws {
        keychainFiles.run {
            let denied = Keychain(service: "s", accessGroup: "not-mine")
            var caught: String?
            do {
                try denied.set("v", forKey: "k")
            } catch KeychainError.interactionNotAllowed {
                caught = "interactionNotAllowed"
            } catch KeychainError.missingEntitlement {
                caught = "missingEntitlement"
            } catch {
                caught = "other \(error)"
            }
            #expect(caught == "missingEntitlement")
        }
    }

    /// The patterns also match an error seen as `any Error` (a `do` that throws other
    /// types too), and match nothing but a `KeychainError` of their status.
    @Test func patternsMatchAnyErrorByStatusOnly() {
        let thrown: any Error = KeychainError(status: errSecDecode, reason: "r")
        #expect(KeychainError.decode ~= thrown)
        #expect(!(KeychainError.param ~= thrown))
        #expect(!(KeychainError.decode ~= CancellationError()))
        let matched: Bool = switch thrown {
        case KeychainError.decode: true
        default: false
        }
        #expect(matched)
    }

    /// Every named code is its Keychain Services status, so `error.code` and `error.status`
    /// agree, and a status without a name is still a code.
    @Test(arguments: [
        (KeychainError.itemNotFound, errSecItemNotFound), (KeychainError.duplicateItem, errSecDuplicateItem),
        (KeychainError.param, errSecParam), (KeychainError.decode, errSecDecode),
        (KeychainError.interactionNotAllowed, errSecInteractionNotAllowed),
        (KeychainError.missingEntitlement, errSecMissingEntitlement), (KeychainError.userCanceled, errSecUserCanceled),
        (KeychainError.authFailed, errSecAuthFailed), (KeychainError.noSuchKeychain, errSecNoSuchKeychain),
        (KeychainError.noSuchAttribute, errSecNoSuchAttr),
    ])
    func namedCodesAreTheirStatuses(code: KeychainError.Code, status: OSStatus) {
        #expect(code.rawValue == status)
        #expect(KeychainError(status: status).code == code)
        #expect(KeychainError(code).status == status)
        #expect(KeychainError(status: -12345).code == KeychainError.Code(rawValue: -12345))
    }

    /// `SwiftKeychain.KeychainError` names the type even where the type `Keychain` hides
    /// the module `Keychain`: the module and the type have different names.
    @Test func moduleQualifiedNamesResolve() {
        let error: SwiftKeychain.KeychainError = SwiftKeychain.KeychainError(.param)
        let keychain: SwiftKeychain.Keychain = Keychain(service: "s")
        #expect(error.status == errSecParam)
        #expect(keychain.service == "s")
    }
}
