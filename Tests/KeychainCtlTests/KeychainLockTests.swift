import Foundation
import Security
import Testing
import TestTags

/// Passwords, locking and settings: create-, unlock-, lock-keychain, set-keychain-password,
/// set-keychain-settings and show-keychain-info. Each password operation runs scrypt (a few
/// tenths of a second), so each test makes few of them.
@Suite struct KeychainLockTests {
    let keychainctl = Keychainctl()

    /// The message of a class A item read while its keychain `name` is locked: the status,
    /// then the command that unlocks it (the user has no dialog to unlock it, as on macOS).
    static func locked(_ name: String) -> String {
        """
        keychainctl: SecItemCopyMatching: User interaction is not allowed.
        keychainctl: the keychain \(name) is locked; unlock it with: keychainctl unlock-keychain \(name)

        """
    }

    @Test func createAsksTwiceWithoutEchoThenLockAndUnlockWithThePassword() throws {
        let created = try keychainctl.onTerminal("create-keychain", "work", answering: [
            ("password for new keychain: ", "typed s3cr3t"), ("retype password for new keychain: ", "typed s3cr3t"),
        ])
        #expect(created.status == 0)
        #expect(created.terminal == "password for new keychain: \r\nretype password for new keychain: \r\n")
        #expect(created.output.isEmpty && created.errors.isEmpty)

        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "kept", "work")
        let lock = try keychainctl("lock-keychain", "work")
        #expect(lock.status == 0 && lock.output.isEmpty && lock.errors.isEmpty)
        // The item has the default accessibility, kSecAttrAccessibleWhenUnlocked: locked, it
        // cannot be read, in this process or any other.
        let refused = try keychainctl("find-generic-password", "-a", "alice", "-w", "work")
        // The status's low byte: errSecInteractionNotAllowed is -25308, 0xFFFF9D24.
        #expect(refused.status == errSecInteractionNotAllowed & 0xFF)
        #expect(refused.status == 36)
        #expect(refused.output.isEmpty)
        #expect(refused.errors == Self.locked("work"))

        let unlocked = try keychainctl.onTerminal("unlock-keychain", "work",
                                                  answering: [("password to unlock work: ", "typed s3cr3t")])
        #expect(unlocked.status == 0)
        #expect(unlocked.terminal == "password to unlock work: \r\n")
        #expect(unlocked.output.isEmpty && unlocked.errors.isEmpty)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "work").output == "kept\n")
    }

    @Test func differentAnswersCreateNoKeychain() throws {
        let mismatch = [("password for new keychain: ", "one"), ("retype password for new keychain: ", "two")]
        let outcome = try keychainctl.onTerminal("create-keychain", "work", answering: mismatch + mismatch + mismatch)
        #expect(outcome.status == 1)
        #expect(outcome.errors == Keychainctl.threeMismatches)
        #expect(!outcome.terminal.contains("one") && !outcome.terminal.contains("two"))
        #expect(try keychainctl("list-keychains").output == keychainctl.line("login"))
    }

    @Test(.tags(.slow)) func aWrongPasswordExits51AndLeavesTheKeychainLocked() throws {
        try keychainctl("create-keychain", "-p", "right", "work")
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "kept", "work")
        try keychainctl("lock-keychain", "work")
        let wrong = try keychainctl("unlock-keychain", "--password-stdin", "work", input: "wrong\n")
        #expect(wrong.status == 51)   // errSecAuthFailed, -25293
        #expect(wrong.output.isEmpty)
        #expect(wrong.errors == "keychainctl: SecKeychainUnlock work: The user name or passphrase you entered is not correct.\n")
        #expect(!wrong.errors.contains("wrong"))
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "work").status == 36)

        // The default keychain is named in the prompt by its path, and not in the message.
        try keychainctl("default-keychain", "-s", "work")
        let outcome = try keychainctl.onTerminal(
            "unlock-keychain", answering: [("password to unlock \(keychainctl.path(of: "work")): ", "also wrong")])
        #expect(outcome.status == 51)
        #expect(outcome.errors == "keychainctl: SecKeychainUnlock: The user name or passphrase you entered is not correct.\n")
    }

    @Test func lockAllLocksEveryKeychainAndAnEmptyPasswordUnlocksOneWithout() throws {
        try keychainctl("create-keychain", "-p", "", "work", "home")
        for name in ["work", "home"] {
            try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "in \(name)", name)
        }
        #expect(try keychainctl("lock-keychain", "-a").status == 0)
        for name in ["work", "home"] {
            #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", name).errors == Self.locked(name), "\(name)")
        }
        #expect(try keychainctl("unlock-keychain", "-p", "", "home").status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "home").output == "in home\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "work").status == 36)
        #expect(try keychainctl("unlock-keychain", "-u", "work").status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "work").output == "in work\n")
        // Without a name, the default keychain.
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "in login")
        #expect(try keychainctl("lock-keychain").status == 0)
        let lockedLogin = try keychainctl("find-generic-password", "-a", "alice", "-w")
        #expect(lockedLogin.status == 36)
        // The hint names the default keychain as unlock-keychain takes it.
        #expect(lockedLogin.errors == Self.locked("login"))

        let missing = try keychainctl("lock-keychain", "nowhere")
        #expect(missing.status == 50)
        #expect(missing.errors == "keychainctl: SecKeychainOpen nowhere: The specified keychain could not be found.\n")
    }

    @Test(.tags(.slow)) func setKeychainPasswordAsksAsMacOSDoes() throws {
        try keychainctl("create-keychain", "-p", "", "work")
        let changed = try keychainctl.onTerminal("set-keychain-password", "work", answering: [
            ("Old Password: ", ""), ("New Password: ", "new s3cr3t"), ("Retype New Password: ", "new s3cr3t"),
        ])
        #expect(changed.status == 0)
        #expect(changed.terminal == "Old Password: \r\nNew Password: \r\nRetype New Password: \r\n")
        #expect(changed.output.isEmpty && changed.errors.isEmpty)

        let wrong = try keychainctl("set-keychain-password", "-o", "not it", "-p", "other", "work")
        #expect(wrong.status == 51)
        #expect(wrong.errors
            == "keychainctl: SecKeychainChangePassword work: The user name or passphrase you entered is not correct.\n")
        try keychainctl("lock-keychain", "work")
        #expect(try keychainctl("unlock-keychain", "--password-stdin", "work", input: "new s3cr3t").status == 0)
    }

    @Test func anEmptyNewPasswordRemovesThePasswordAndTheItemsThatNeedOne() throws {
        try keychainctl("create-keychain", "-p", "pw", "work")
        let added = keychainctl.asProgram("com.example.app", keychain: "work") {
            SecItemAdd([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "passcode",
                kSecAttrService as String: "example.com", kSecValueData as String: Data("akpu".utf8),
                kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            ] as CFDictionary, nil)
        }
        #expect(added == errSecSuccess)
        try keychainctl("add-generic-password", "-a", "plain", "-s", "example.com", "-w", "stays", "work")
        let removed = try keychainctl("set-keychain-password", "-o", "pw", "-p", "", "work")
        #expect(removed.status == 0 && removed.errors.isEmpty)
        #expect(try keychainctl("find-generic-password", "-a", "passcode", "work").status == 44)
        #expect(try keychainctl("find-generic-password", "-a", "plain", "-w", "work").output == "stays\n")
        let help = try keychainctl("set-keychain-password", "--help").output
        #expect(help.contains("(akpu)") && help.contains("An empty new password removes the password"))
    }

    @Test func settingsRoundTripThroughShowKeychainInfo() throws {
        try keychainctl("create-keychain", "-p", "", "work")
        func info(_ arguments: String...) throws -> String {
            let shown = try keychainctl.program.run(["show-keychain-info"] + arguments, dataHome: keychainctl.dataHome)
            #expect(shown.status == 0 && shown.output.isEmpty)
            return shown.errors
        }
        #expect(try info("work") == "Keychain \"work\" no-timeout\n")
        #expect(try keychainctl("set-keychain-settings", "-l", "-t", "300", "work").status == 0)
        #expect(try info("work") == "Keychain \"work\" lock-on-sleep timeout=300s\n")
        #expect(try info(keychainctl.path(of: "work")) == "Keychain \"\(keychainctl.path(of: "work"))\" lock-on-sleep timeout=300s\n")
        // As in security, the settings given replace all of them: -u without -t is no timeout.
        #expect(try keychainctl("set-keychain-settings", "-u", "work").status == 0)
        #expect(try info("work") == "Keychain \"work\" no-timeout\n")
        #expect(try keychainctl("set-keychain-settings", "-t", "60", "work").status == 0)
        #expect(try info("work") == "Keychain \"work\" timeout=60s\n")
        #expect(try info() == "Keychain \"\(keychainctl.loginPath)\" no-timeout\n")

        let missing = try keychainctl("show-keychain-info", "nowhere")
        #expect(missing.status == 50)
        #expect(missing.errors == "keychainctl: SecKeychainOpen nowhere: The specified keychain could not be found.\n")
    }
}
