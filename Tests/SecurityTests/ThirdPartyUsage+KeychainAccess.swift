import Foundation
import Security
import Testing
import TestSupport

// KeychainAccess (kishikawakatsumi/KeychainAccess, Lib/KeychainAccess/Keychain.swift) turns
// a CFError into an NSError through CFErrorGetDomain, CFErrorGetCode and CFErrorCopyUserInfo
// (`extension CFError { var error: NSError }`), reads Security's constants through
// `String(kSecAttr...)`, and describes statuses with SecCopyErrorMessageString. Random bytes
// come from SecRandomCopyBytes in the two shapes Swift code writes it (`&bytes` on a
// `[UInt8]`, and a Data's mutable bytes). Written here from reading it; it needs no
// CommonCrypto.

extension CFError {
    /// KeychainAccess's `error`: the CFError rebuilt as an NSError from its parts.
    var keychainAccessError: NSError {
        let domain = CFErrorGetDomain(self) as String
        let code = CFErrorGetCode(self)
        let userInfo = CFErrorCopyUserInfo(self) as? [String: Any] ?? [:]
        return NSError(domain: domain, code: code, userInfo: userInfo)
    }
}

/// KeychainAccess's Accessibility, whose raw values are Security's constants as Strings.
enum KeychainAccessStyleAccessibility: CaseIterable {
    case whenUnlocked, afterFirstUnlock, whenPasscodeSetThisDeviceOnly, whenUnlockedThisDeviceOnly, afterFirstUnlockThisDeviceOnly

    var rawValue: String {
        switch self {
        case .whenUnlocked: String(kSecAttrAccessibleWhenUnlocked)
        case .afterFirstUnlock: String(kSecAttrAccessibleAfterFirstUnlock)
        case .whenPasscodeSetThisDeviceOnly: String(kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly)
        case .whenUnlockedThisDeviceOnly: String(kSecAttrAccessibleWhenUnlockedThisDeviceOnly)
        case .afterFirstUnlockThisDeviceOnly: String(kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly)
        }
    }

    init?(rawValue: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = match
    }
}

@Suite("Third-party usage: KeychainAccess and SecRandomCopyBytes callers")
struct KeychainAccessUsageTests {
    // Rule (Apple, SecKeyCreateSignature): a failed SecKey call's CFError is in
    // NSOSStatusErrorDomain with the status as its code and a description in its user info;
    // KeychainAccess's rebuilt NSError keeps all three.
    @Test("Keychain.swift: a CFError from Security rebuilds as an NSError (domain, code, user info)")
    func cfErrorToNSError() throws {
        let publicKey = try SecKeyCalls.publicKey(SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: 256))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateSignature(publicKey, .ecdsaSignatureMessageX962SHA256, Data("x".utf8) as CFData, &error) == nil)
        let cfError = try #require(error?.takeRetainedValue())
        let rebuilt = cfError.keychainAccessError
        #expect(rebuilt.domain == NSOSStatusErrorDomain)
        #expect(rebuilt.code == CFErrorGetCode(cfError) && rebuilt.code != 0)
        #expect(rebuilt.code == (cfError as Error as NSError).code)
        let description = try #require(rebuilt.userInfo[NSDebugDescriptionErrorKey] as? String
            ?? rebuilt.userInfo[NSLocalizedDescriptionKey] as? String)
        #expect(!description.isEmpty)
    }

    // Rule (Apple, SecItem.h and SecBase.h): the accessibility constants are the strings "ak",
    // "ck", "akpu", "aku", "cku", and SecCopyErrorMessageString gives SecBase.h's text.
    @Test("Keychain.swift: String(kSecAttrAccessible...) are Apple's values; SecCopyErrorMessageString as String?")
    func constantsAsStrings() {
        #expect(KeychainAccessStyleAccessibility.allCases.map(\.rawValue) == ["ak", "ck", "akpu", "aku", "cku"])
        #expect(KeychainAccessStyleAccessibility(rawValue: "ck") == .afterFirstUnlock)
        #expect(KeychainAccessStyleAccessibility(rawValue: "nope") == nil)
        #expect(SecCopyErrorMessageString(errSecItemNotFound, nil) as String? == "The specified item could not be found in the keychain.")
        #expect(SecCopyErrorMessageString(errSecDuplicateItem, nil) as String? == "The specified item already exists in the keychain.")
    }

    // Rule (Apple, SecRandom.h): SecRandomCopyBytes fills exactly `count` bytes and returns
    // errSecSuccess. 64 random bytes all zero, or two draws equal, happen with probability
    // 2^-512: a buffer left unfilled fails this test.
    @Test("SecRandomCopyBytes: into a [UInt8] with &, and into a Data's mutable bytes")
    func randomBytes() throws {
        var first = [UInt8](repeating: 0, count: 64)
        #expect(SecRandomCopyBytes(kSecRandomDefault, first.count, &first) == errSecSuccess)
        var second = Data(count: 64)
        let status = second.withUnsafeMutableBytes { buffer -> Int32 in
            guard let pointer = buffer.baseAddress else { return errSecParam }
            return SecRandomCopyBytes(kSecRandomDefault, 64, pointer)
        }
        #expect(status == errSecSuccess)
        #expect(first != [UInt8](repeating: 0, count: 64) && second != Data(count: 64))
        #expect(Data(first) != second)
        var empty: [UInt8] = []
        #expect(SecRandomCopyBytes(kSecRandomDefault, 0, &empty) == errSecSuccess)
    }

    // KeychainAccess's AuthenticationPolicy is an OptionSet whose raw values are Apple's
    // SecAccessControlCreateFlags; its `set` builds the access control from the item's
    // accessibility string and the policy, puts it under kSecAttrAccessControl instead of
    // kSecAttrAccessible, and its `contains` searches with kSecUseAuthenticationUIFail, reading
    // errSecInteractionNotAllowed as "there, but protected".
    @Test("Keychain.swift: an AuthenticationPolicy item is created, found by contains (Fail), and removed, as KeychainAccess does")
    func authenticationPolicyItems() throws {
        struct AuthenticationPolicy: OptionSet {
            let rawValue: UInt
            static let userPresence = AuthenticationPolicy(rawValue: 1 << 0)
            static let biometryAny = AuthenticationPolicy(rawValue: 1 << 1)
            static let devicePasscode = AuthenticationPolicy(rawValue: 1 << 4)
            static let or = AuthenticationPolicy(rawValue: 1 << 14)
            static let applicationPassword = AuthenticationPolicy(rawValue: 1 << 31)
        }
        let keychain = PrivateKeychain()
        let policy: AuthenticationPolicy = [.biometryAny, .or, .devicePasscode]
        var error: Unmanaged<CFError>?
        let accessControl = try #require(SecAccessControlCreateWithFlags(
            kCFAllocatorDefault, KeychainAccessStyleAccessibility.whenPasscodeSetThisDeviceOnly.rawValue as CFTypeRef,
            SecAccessControlCreateFlags(rawValue: CFOptionFlags(policy.rawValue)), &error))
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.example.github-token",
            kSecAttrAccount as String: "kishikawakatsumi",
        ]
        var attributes = query
        attributes[kSecAttrAccessControl as String] = accessControl
        attributes[kSecValueData as String] = Data("01234567-89ab-cdef-0123-456789abcdef".utf8)
        // akpu needs a keychain password; this one has none, as on a device without a passcode.
        #expect(keychain.add(attributes) == errSecAuthFailed)
        let unlocked = try #require(SecAccessControlCreateWithFlags(
            kCFAllocatorDefault, KeychainAccessStyleAccessibility.whenUnlockedThisDeviceOnly.rawValue as CFTypeRef,
            SecAccessControlCreateFlags(rawValue: CFOptionFlags(policy.rawValue)), &error))
        attributes[kSecAttrAccessControl as String] = unlocked
        #expect(keychain.add(attributes) == errSecSuccess)
        query[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail
        var contains = query
        contains[kSecReturnData as String] = true
        #expect(keychain.copyMatching(contains).status == errSecInteractionNotAllowed)
        query.removeValue(forKey: kSecUseAuthenticationUI as String)
        #expect(keychain.delete(query) == errSecSuccess)
        #expect(keychain.count(query) == 0)
    }
}
