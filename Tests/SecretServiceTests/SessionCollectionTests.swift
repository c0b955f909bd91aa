import Foundation
import Testing
import TestSupport
import TestTags
#if canImport(Glibc)
import Glibc
#endif

/// The collection `session` (alias `session`), as the Secret Service API describes it and
/// GNOME Keyring provides it: items in the provider's memory only, never in a file, gone when
/// the provider ends; and the alias `login`, the login keychain's collection. Checked with
/// secret-tool, busctl and Python keyring's own backend tests, which store in the session
/// collection.
@Suite struct SessionCollectionTests {
    static let service = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let session = "/org/freedesktop/secrets/collection/session"
    static let login = "/org/freedesktop/secrets/collection/login"

    /// The files under `folder` whose bytes hold `text`.
    private func files(holding text: String, under folder: URL) -> [String] {
        let wanted = Data(text.utf8)
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var found: [String] = []
        while let file = walker?.nextObject() as? URL {
            if let bytes = try? Data(contentsOf: file), bytes.range(of: wanted) != nil { found.append(file.path) }
        }
        return found
    }

    /// secret-tool stores in the session collection by its alias; lookups find the item there
    /// (it is the session collection's, not the keychain's); no file of the user's holds its
    /// secret; SIGTERM ends the provider cleanly; and a new one has no such item.
    @Test func secretToolStoresInTheSessionCollectionOnlyWhileTheProviderRuns() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        try bus.startProvider()
        let store = try bus.secretTool("store", "--collection=session", "--label=Session note", "service", "session.example",
                                       "account", "ann", input: "in memory only")
        #expect(store.status == 0, "\(store.errors)")
        #expect(try bus.secretTool("lookup", "service", "session.example", "account", "ann").output == "in memory only")
        let search = try bus.call(Self.session, "org.freedesktop.Secret.Collection", "SearchItems", "a{ss}", "1",
                                  "service", "session.example")
        #expect(search.output.hasPrefix("ao 1 \"\(Self.session)/"), "\(search.output)\(search.errors)")
        let inLogin = try bus.call(Self.login, "org.freedesktop.Secret.Collection", "SearchItems", "a{ss}", "1",
                                   "service", "session.example")
        #expect(inLogin.output == "ao 0\n", "\(inLogin.errors)")
        #expect(try bus.keychainctl("find-generic-password", "-s", "session.example").status != 0)
        #expect(files(holding: "in memory only", under: bus.dataHome).isEmpty)
        // The provider is stopped, as systemd stops it at the end of the session: it ends
        // serving (and zeroes the session collection's secrets) and exits with status 0.
        let first = try #require(bus.providers.first)
        first.kill(SIGTERM)
        let ended = first.wait()
        #expect(ended.status == 0 && !ended.signalled, "\(ended.status)")
        #expect(try bus.providerErrors().contains("keychain-secret-service: stopped by signal 15"))
        // Another starts: the item is gone.
        try bus.startProvider()
        let after = try bus.secretTool("lookup", "service", "session.example", "account", "ann")
        #expect(after.status != 0 && after.output.isEmpty, "\(after.output)")
        let items = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", Self.session,
                                                    "org.freedesktop.Secret.Collection", "Items"])
        #expect(items.output == "ao 0\n", "\(items.errors)")
    }

    /// The aliases GNOME Keyring answers: `default` and `login` the login keychain's
    /// collection, `session` the session collection; Collections lists it after the
    /// keychains; CreateCollection with the alias `session` gives it with no prompt. SetAlias
    /// keeps `login` and `session` on their own collections, and the session collection, in
    /// memory only, cannot be the default.
    @Test func theSessionAndLoginAliasesNameTheirCollections() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            for (alias, path) in [("default", Self.login), ("login", Self.login), ("session", Self.session), ("work", "/")] {
                let read = try bus.call(Self.service, Self.serviceInterface, "ReadAlias", "s", alias)
                #expect(read.output == "o \"\(path)\"\n", "\(alias): \(read.errors)")
            }
            let collections = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets",
                                                              Self.service, Self.serviceInterface, "Collections"])
            #expect(collections.output == "ao 2 \"\(Self.login)\" \"\(Self.session)\"\n", "\(collections.errors)")
            let create = try bus.call(Self.service, Self.serviceInterface, "CreateCollection", "a{sv}s", "0", "session")
            #expect(create.output == "oo \"\(Self.session)\" \"/\"\n", "\(create.errors)")
            let label = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets",
                                                        "/org/freedesktop/secrets/aliases/session",
                                                        "org.freedesktop.Secret.Collection", "Locked"])
            #expect(label.output == "b false\n", "\(label.errors)")
            #expect(try bus.call(Self.service, Self.serviceInterface, "SetAlias", "so", "session", Self.session).status == 0)
            #expect(try bus.call(Self.service, Self.serviceInterface, "SetAlias", "so", "login", Self.session).status != 0)
            let sessionDefault = try bus.call(Self.service, Self.serviceInterface, "SetAlias", "so", "default", Self.session)
            #expect(sessionDefault.errors.contains("the session collection cannot be the default"), "\(sessionDefault.errors)")
            #expect(try bus.call(Self.service, Self.serviceInterface, "ReadAlias", "s", "default").output
                    == "o \"\(Self.login)\"\n")
        }
    }

    /// keyring's own backend tests (BackendBasicTests from Debian's python3-keyring) with the
    /// SecretService backend on the session collection, as keyring's own test of that backend
    /// runs them (its `preferred_collection`).
    @Test(.tags(.slow)) func keyringsOwnBackendTestsPassOnTheSessionCollection() throws {
        let folder = TestScratch.folder("keyring-session-tests")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tests = folder.appendingPathComponent("test_secret_service_session.py")
        try """
            from keyring.testing.backend import BackendBasicTests
            from keyring.backends import SecretService

            class TestSecretServiceSessionCollection(BackendBasicTests):
                __test__ = True

                def init_keyring(self):
                    keyring = SecretService.Keyring()
                    keyring.preferred_collection = '/org/freedesktop/secrets/collection/session'
                    return keyring
            """.write(to: tests, atomically: false, encoding: .utf8)
        try withProvider { (bus: PrivateSessionBus) throws in
            let run = try bus.runClient(
                "/usr/bin/python3", ["-m", "pytest", "-c", "/dev/null", "-p", "no:cacheprovider", "--rootdir", folder.path,
                                     "-v", tests.path],
                environment: ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "PYTHON_KEYRING_BACKEND": nil,
                              "PYTHONDONTWRITEBYTECODE": "1"],
                seconds: 300)
            #expect(run.status == 0, "\(run.output)\(run.errors)")
            #expect(!run.output.contains("FAILED") && run.output.contains(" PASSED"), "\(run.output)")
            // Nothing of it reached the keychain.
            let login = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", Self.login,
                                                        "org.freedesktop.Secret.Collection", "Items"])
            #expect(login.output == "ao 0\n", "\(login.errors)")
        }
    }
}
