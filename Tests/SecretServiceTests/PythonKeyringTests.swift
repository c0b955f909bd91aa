import Foundation
import Testing
import TestSupport
import TestTags

/// Python's keyring (Debian's python3-keyring), the library pip, twine, poetry and many
/// command-line tools store their tokens with, through its SecretService backend.
@Suite struct PythonKeyringTests {
    /// Runs `script` with Debian's python3 on `bus`, with no keyring configuration of the
    /// machine's (HOME and XDG_CONFIG_HOME in scratch, no PYTHON_KEYRING_BACKEND).
    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        let home = bus.dataHome.appendingPathComponent("keyring-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return try bus.runClient(
            "/usr/bin/python3", ["-c", "import keyring, keyring.errors\n" + script],
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path, "PYTHON_KEYRING_BACKEND": nil])
    }

    /// keyring's default choice on this bus is the SecretService backend, and
    /// set_password/get_password/delete_password go through the provider: a second
    /// set_password replaces, a deleted password reads as None, and deleting it again is
    /// keyring's PasswordDeleteError.
    @Test func setGetAndDeletePasswordThroughTheDefaultKeyring() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try python(bus, """
                from keyring.backends import SecretService
                chosen = keyring.get_keyring()
                backends = getattr(chosen, 'backends', [chosen])
                print(isinstance(backends[0], SecretService.Keyring))
                keyring.set_password('pypi.example', 'ann', 'tok-ä1')
                print(keyring.get_password('pypi.example', 'ann'))
                keyring.set_password('pypi.example', 'ann', 'tok-2')
                print(keyring.get_password('pypi.example', 'ann'))
                credential = keyring.get_credential('pypi.example', None)
                print(credential.username, credential.password)
                keyring.delete_password('pypi.example', 'ann')
                print(keyring.get_password('pypi.example', 'ann'))
                try:
                    keyring.delete_password('pypi.example', 'ann')
                except keyring.errors.PasswordDeleteError:
                    print('PasswordDeleteError')
                """)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == "True\ntok-ä1\ntok-2\nann tok-2\nNone\nPasswordDeleteError\n")
        }
    }

    /// Mapping: keyring's `service` and `username` attributes are the keychain item's service
    /// and account, so a token stored with keyring is found by keychainctl under them.
    @Test func aPasswordStoredWithKeyringIsFoundByKeychainctl() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let stored = try python(bus, "keyring.set_password('registry.example', 'bob', 'from-keyring')")
            #expect(stored.status == 0, "\(stored.errors)")
            let found = try bus.keychainctl("find-generic-password", "-s", "registry.example", "-a", "bob", "-w")
            #expect(found.status == 0, "\(found.errors)")
            #expect(found.output == "from-keyring\n")
            let attributes = try bus.keychainctl("find-generic-password", "-s", "registry.example", "-a", "bob")
            // The label keyring gives, as kSecAttrLabel (attribute 7).
            #expect(attributes.output.contains("    0x00000007 <blob>=\"Password for 'bob' on 'registry.example'\"\n"),
                    "\(attributes.output)")
        }
    }

    /// keyring's own backend tests (BackendBasicTests, which Debian's python3-keyring ships in
    /// keyring.testing) with the SecretService backend on its default collection, run with
    /// pytest: set/get, difficult and Unicode characters, deleting one of a group, several
    /// users of one service, credentials.
    @Test(.tags(.slow)) func keyringsOwnBackendTestsPass() throws {
        let folder = TestScratch.folder("keyring-backend-tests")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tests = folder.appendingPathComponent("test_secret_service_backend.py")
        try """
            from keyring.testing.backend import BackendBasicTests
            from keyring.backends import SecretService

            class TestSecretServiceDefaultCollection(BackendBasicTests):
                __test__ = True

                def init_keyring(self):
                    return SecretService.Keyring()
            """.write(to: tests, atomically: false, encoding: .utf8)
        try withProvider { (bus: PrivateSessionBus) throws in
            let run = try bus.runClient(
                "/usr/bin/python3", ["-m", "pytest", "-c", "/dev/null", "-p", "no:cacheprovider", "--rootdir", folder.path,
                                     "-v", tests.path],
                environment: ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "PYTHON_KEYRING_BACKEND": nil,
                              "PYTHONDONTWRITEBYTECODE": "1"],
                seconds: 300)
            #expect(run.status == 0, "\(run.output)\(run.errors)")
            let passed = Set(run.output.split(separator: "\n").compactMap { line -> String? in
                guard line.contains(" PASSED"), let name = line.split(separator: " ").first?.split(separator: ":").last
                else { return nil }
                return String(name)
            })
            #expect(passed == [
                "test_password_set_get", "test_difficult_chars", "test_delete_present", "test_delete_not_present",
                "test_delete_one_in_group", "test_name_property", "test_unicode_chars", "test_unicode_and_ascii_chars",
                "test_different_user", "test_credential", "test_set_properties", "test_new_with_properties",
            ], "\(run.output)")
        }
    }
}
