import Foundation
import Security
import Testing
import TestSupport

/// SecAccessControl and kSecAttrAccessControl: how access-controlled items are created, stored,
/// searched, updated and deleted, and what the calls do when they may not ask the user. The
/// prompts themselves are checked with a real PAM conversation in the presence suites.
@Suite("Access control")
struct AccessControlTests {
    private func accessControl(_ protection: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                               _ flags: SecAccessControlCreateFlags = .userPresence) throws -> SecAccessControl {
        var error: Unmanaged<CFError>?
        let made = SecAccessControlCreateWithFlags(nil, protection, flags, &error)
        #expect(error == nil)
        return try #require(made)
    }

    /// A generic password protected by `flags`, as KeychainAccess and Valet add them.
    private func protectedItem(account: String = "alice", flags: SecAccessControlCreateFlags = .userPresence) throws -> [String: Any] {
        genericPassword(account: account).with([
            kSecAttrAccessControl as String: try accessControl(kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags),
            kSecValueData as String: Data("secret of \(account)".utf8),
        ])
    }

    @Test("SecAccessControlCreateFlags has Apple's raw values, so code that stores them keeps working")
    func flagValues() {
        let expected: [(SecAccessControlCreateFlags, CFOptionFlags)] = [
            (.userPresence, 1), (.biometryAny, 2), (.touchIDAny, 2), (.biometryCurrentSet, 8), (.touchIDCurrentSet, 8),
            (.devicePasscode, 16), (.watch, 32), (.companion, 32), (.or, 1 << 14), (.and, 1 << 15),
            (.privateKeyUsage, 1 << 30), (.applicationPassword, 1 << 31),
        ]
        for (flag, raw) in expected { #expect(flag.rawValue == raw) }
    }

    @Test("SecAccessControlCreateWithFlags takes every protection class and every flag; its type is SecAccessControlGetTypeID()",
          arguments: [kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                      kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly].map { $0 as String })
    func createsForEveryProtection(protection: String) throws {
        let flagSets: [SecAccessControlCreateFlags] = [
            [], .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .watch, .companion,
            [.biometryAny, .or, .devicePasscode], [.biometryCurrentSet, .and, .devicePasscode],
            .privateKeyUsage, [.privateKeyUsage, .userPresence], .applicationPassword, [.applicationPassword, .userPresence],
        ]
        for flags in flagSets {
            let made = try accessControl(protection as CFString, flags)
            #expect(CFGetTypeID(made) == SecAccessControlGetTypeID())
            #expect(CFGetTypeID(made) != CFStringGetTypeID())
        }
    }

    @Test("SecAccessControlCreateWithFlags refuses a protection that is no kSecAttrAccessible value, .or with .and, and unknown bits (errSecParam)")
    func refusesBadArguments() {
        let cases: [(CFTypeRef, SecAccessControlCreateFlags)] = [
            ("nope" as CFString, .userPresence),
            (NSNumber(value: 1), .userPresence),
            (kSecAttrAccessibleWhenUnlocked, [.userPresence, .devicePasscode, .or, .and]),
            (kSecAttrAccessibleWhenUnlocked, SecAccessControlCreateFlags(rawValue: 1 << 2)),
        ]
        for (protection, flags) in cases {
            var error: Unmanaged<CFError>?
            #expect(SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection, flags, &error) == nil)
            let failure = error?.takeRetainedValue()
            #expect(failure.map { CFErrorGetCode($0) } == Int(errSecParam))
        }
    }

    @Test("An access-controlled item comes back with kSecAttrAccessControl as a SecAccessControl and its protection as kSecAttrAccessible; searching for attributes needs no one")
    func attributesComeBackWithoutPresence() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(try protectedItem()) == errSecSuccess)
        // No context, no terminal is asked: attributes never need the user (Apple does the same).
        let found = keychain.attributes(genericPassword().with([kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]))
        #expect(found.status == errSecSuccess)
        let attributes = try #require(found.attributes)
        #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String)
        let stored = try #require(attributes[kSecAttrAccessControl as String].map { $0 as AnyObject })
        #expect(CFGetTypeID(stored) == SecAccessControlGetTypeID())
        // An item added without one has none, as before.
        #expect(keychain.add(genericPassword(account: "plain").with([kSecValueData as String: Data("x".utf8)])) == errSecSuccess)
        #expect(keychain.attributes(genericPassword(account: "plain")).attributes?[kSecAttrAccessControl as String] == nil)
    }

    @Test("kSecAttrAccessControl with kSecAttrAccessible beside it, or a value that is no SecAccessControl, is errSecParam and adds nothing")
    func refusesBadValues() throws {
        let keychain = PrivateKeychain()
        let both = try protectedItem().with([kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked])
        #expect(keychain.add(both) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecAttrAccessControl as String: "ak"])) == errSecParam)
        #expect(keychain.count(genericPassword()) == 0)
    }

    @Test("The access control's protection acts as kSecAttrAccessible: it selects the item's class and is searched by it")
    func protectionActsAsAccessible() throws {
        let keychain = PrivateKeychain()
        let control = try accessControl(kSecAttrAccessibleAfterFirstUnlock, .devicePasscode)
        #expect(keychain.add(genericPassword().with([kSecAttrAccessControl as String: control])) == errSecSuccess)
        #expect(keychain.count(genericPassword().with([kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock])) == 1)
        #expect(keychain.count(genericPassword().with([kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked])) == 0)
        // The same access control in a search finds it; another one does not.
        #expect(keychain.count(genericPassword().with([kSecAttrAccessControl as String: control])) == 1)
        let other = try accessControl(kSecAttrAccessibleAfterFirstUnlock, .userPresence)
        #expect(keychain.count(genericPassword().with([kSecAttrAccessControl as String: other])) == 0)
    }

    @Test("kSecUseAuthenticationUIFail: reading the secret of an item that needs the user is errSecInteractionNotAllowed")
    func failInterface() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(try protectedItem()) == errSecSuccess)
        let query = genericPassword().with([kSecReturnData as String: true,
                                            kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail])
        #expect(keychain.copyMatching(query).status == errSecInteractionNotAllowed)
        // The older key says the same.
        let older = genericPassword().with([kSecReturnData as String: true, kSecUseNoAuthenticationUI as String: true])
        #expect(keychain.copyMatching(older).status == errSecInteractionNotAllowed)
    }

    @Test("kSecUseAuthenticationUISkip: a search for secrets leaves items that need the user out, and finds the others")
    func skipInterface() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(try protectedItem(account: "guarded")) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "open").with([kSecValueData as String: Data("open secret".utf8)])) == errSecSuccess)
        let all: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnData as String: true, kSecReturnAttributes as String: true,
            kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip,
        ]
        let found = keychain.copyMatching(all)
        #expect(found.status == errSecSuccess)
        let items = try #require(found.result as? [[String: Any]])
        #expect(items.map { $0[kSecAttrAccount as String] as? String } == ["open"])
        #expect(items.first?[kSecValueData as String] as? Data == Data("open secret".utf8))
        // With the default limit of one, the guarded item (added first) does not hide the other.
        let one = genericPassword(account: "open").with([kSecReturnData as String: true]).merging(
            [kSecAttrAccount as String: "open", kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]) { $1 }
        #expect(keychain.copyMatching(one).result as? Data == Data("open secret".utf8))
        let first = [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true,
                     kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip] as [String: Any]
        #expect(keychain.copyMatching(first).result as? Data == Data("open secret".utf8))
        // Only the guarded one asked for: nothing to give.
        let guarded = genericPassword(account: "guarded").with([kSecReturnData as String: true,
                                                                 kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip])
        #expect(keychain.copyMatching(guarded).status == errSecItemNotFound)
    }

    @Test("Wrong values for kSecUseAuthenticationUI, kSecUseAuthenticationContext and kSecUseOperationPrompt are errSecParam")
    func badUseValues() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(try protectedItem()) == errSecSuccess)
        for (key, value) in [(kSecUseAuthenticationUI as String, "u_AuthUIX" as Any), (kSecUseAuthenticationContext as String, "context"),
                             (kSecUseOperationPrompt as String, 12)] {
            #expect(keychain.copyMatching(genericPassword().with([key: value, kSecReturnData as String: true])).status == errSecParam)
        }
    }

    @Test("Biometry-only constraints cannot be met on Linux: the secret is errSecAuthFailed, as on a Mac without Touch ID, and nothing is asked")
    func biometryOnly() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(try protectedItem(flags: .biometryCurrentSet)) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword().with([kSecReturnData as String: true])).status == errSecAuthFailed)
        // .and with a biometry constraint cannot be met either; .or with the passcode can (asked for elsewhere).
        #expect(keychain.add(try protectedItem(account: "both", flags: [.biometryAny, .and, .devicePasscode])) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword(account: "both").with([kSecReturnData as String: true])).status == errSecAuthFailed)
    }

    @Test("Updating and deleting access-controlled items needs no one; Valet's delete with kSecAttrAccessControl in the query deletes them")
    func updateAndDeleteWithoutPresence() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(try protectedItem()) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [kSecValueData as String: Data("new".utf8), kSecAttrLabel as String: "L"]) == errSecSuccess)
        #expect(keychain.attributes(genericPassword()).attributes?[kSecAttrLabel as String] as? String == "L")
        // An update may give the item another access control: its protection moves with it.
        let looser = try accessControl(kSecAttrAccessibleAfterFirstUnlock, [])
        #expect(keychain.update(genericPassword(), [kSecAttrAccessControl as String: looser]) == errSecSuccess)
        #expect(keychain.secret(genericPassword().with([kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail])) == Data("new".utf8))
        #expect(keychain.add(try protectedItem(account: "valet")) == errSecSuccess)
        let valetDelete = genericPassword(account: "valet").with([kSecAttrAccessControl as String: try accessControl()])
        #expect(keychain.delete(valetDelete) == errSecSuccess)
        #expect(keychain.count(genericPassword(account: "valet")) == 0)
    }
}

/// A software private key (no token) whose access control needs the user asks when it is used,
/// as Apple's keychain keys do; found without asking, as references never ask.
@Suite("Access control on software keys")
struct SoftwareKeyAccessControlTests {
    private func storedKey(_ keychain: PrivateKeychain, tag: String, flags: SecAccessControlCreateFlags) throws -> SecKey {
        var error: Unmanaged<CFError>?
        let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, &error))
        let made = keychain.run {
            SecKeyCreateRandomKey([
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data(tag.utf8),
                                                kSecAttrAccessControl as String: control],
            ] as CFDictionary, &error)
        }
        return try #require(made, "\(error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0)")
    }

    private func found(_ keychain: PrivateKeychain, tag: String, _ extra: [String: Any] = [:]) throws -> SecKey {
        let result = keychain.copyMatching([
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data(tag.utf8),
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecReturnRef as String: true,
        ].merging(extra) { $1 })
        #expect(result.status == errSecSuccess)
        let object = try #require(result.result)
        try #require(CFGetTypeID(object) == SecKeyGetTypeID())
        return object as! SecKey // A CF type: checked by its type identifier above.
    }

    private func signStatus(_ key: SecKey) -> Int {
        var error: Unmanaged<CFError>?
        let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data("message".utf8) as CFData, &error)
        return signature != nil ? 0 : error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? -1
    }

    @Test("A stored key whose access control needs biometry cannot sign (errSecAuthFailed); one that may not ask cannot either (errSecInteractionNotAllowed)")
    func guardedKeyAsksWhenUsed() throws {
        let keychain = PrivateKeychain()
        _ = try storedKey(keychain, tag: "biometry", flags: [.privateKeyUsage, .biometryAny])
        #expect(signStatus(try found(keychain, tag: "biometry")) == Int(errSecAuthFailed))
        _ = try storedKey(keychain, tag: "presence", flags: .userPresence)
        let mayNotAsk = try found(keychain, tag: "presence", [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail])
        #expect(signStatus(mayNotAsk) == Int(errSecInteractionNotAllowed))
    }

    @Test("A stored key whose access control asks for nothing (.privateKeyUsage alone) signs without asking")
    func unguardedKeySigns() throws {
        let keychain = PrivateKeychain()
        _ = try storedKey(keychain, tag: "plain", flags: .privateKeyUsage)
        #expect(signStatus(try found(keychain, tag: "plain")) == 0)
    }
}
