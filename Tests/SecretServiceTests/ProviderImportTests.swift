import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `keychain-secret-service --import-from-running`: moving in from GNOME Keyring, a real
/// provider, running on a private bus with a throwaway HOME. Every item of its default
/// collection (label, attributes, secret) is copied into the keychain, where this provider
/// then serves it to secret-tool as GNOME Keyring did.
@Suite struct ProviderImportTests {
    /// gnome-keyring-daemon on `bus`, its login collection unlocked (created with a throwaway
    /// password), its files under a HOME of its own; stopped by `stop`.
    final class GnomeKeyring {
        let process: SpawnedProcess
        let home = TestScratch.folder("gnome-keyring-home")

        init(on bus: PrivateSessionBus) throws {
            for folder in ["", "/run", "/.local/share", "/.config"] {
                try FileManager.default.createDirectory(atPath: home.path + folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
            let password = home.appendingPathComponent("password")
            try "throwaway".write(to: password, atomically: false, encoding: .utf8)
            var environment = bus.environment
            environment["HOME"] = home.path
            environment["XDG_RUNTIME_DIR"] = home.path + "/run"
            environment["XDG_DATA_HOME"] = home.path + "/.local/share"
            environment["XDG_CONFIG_HOME"] = home.path + "/.config"
            // --unlock reads the password from standard input and creates the login
            // collection, alias default, unlocked.
            process = try SpawnedProcess(
                "/usr/bin/gnome-keyring-daemon", ["--foreground", "--unlock", "--components=secrets"],
                environment: environment, stdin: .open(password.path, O_RDONLY), stdout: .open("/dev/null", O_WRONLY),
                stderr: .open("/dev/null", O_WRONLY))
            // NameHasOwner, unlike a Secret Service call, starts nothing.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let owned = try bus.run("/usr/bin/busctl", ["--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                            "org.freedesktop.DBus", "NameHasOwner", "s", "org.freedesktop.secrets"])
                if owned.output == "b true\n" { return }
                guard process.poll() == nil else { throw TestFailure("gnome-keyring-daemon ended before owning the name") }
                usleep(50_000)
            }
            stop()
            throw TestFailure("gnome-keyring-daemon did not own org.freedesktop.secrets in 60 seconds")
        }

        func stop() {
            if process.poll() == nil {
                process.kill(SIGTERM)
                process.wait()
            }
        }
    }

    /// Three items stored in GNOME Keyring with secret-tool (one without service or account)
    /// are copied; once GNOME Keyring stops and this provider starts, secret-tool finds each
    /// with its label, attributes and secret, and keychainctl sees them in the keychain.
    @Test func gnomeKeyringsItemsMoveIntoTheKeychain() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let gnome = try GnomeKeyring(on: bus)
        defer { gnome.stop() }
        let items: [(label: String, attributes: [String], secret: String)] = [
            ("Wiki", ["service", "wiki.example", "account", "eve"], "one"),
            ("Mail", ["server", "mail.example", "user", "bob", "protocol", "imap"], "two two"),
            ("Token", ["xdg:schema", "org.example.Token", "id", "42"], "three"),
        ]
        for item in items {
            let stored = try bus.run("/usr/bin/secret-tool", ["store", "--label", item.label] + item.attributes, input: item.secret)
            #expect(stored.status == 0, "\(stored.errors)")
        }

        let moved = try bus.run(ProgramProcess("keychain-secret-service").executable.path, ["--import-from-running"])
        #expect(moved.status == 0, "\(moved.errors)")
        #expect(moved.output.contains("imported 3 items into") && moved.output.contains("3 added, 0 replaced, 0 failed"),
                "\(moved.output)")
        #expect(!moved.output.contains("two two") && !moved.errors.contains("two two"))

        gnome.stop()
        try bus.startProvider()
        for item in items {
            let lookup = try bus.run("/usr/bin/secret-tool", ["lookup"] + item.attributes)
            #expect(lookup.output == item.secret, "\(item.label): \(lookup.errors)")
            let search = try bus.run("/usr/bin/secret-tool", ["search", "--all"] + item.attributes)
            // secret-tool writes the attributes to standard error.
            let lines = Set((search.output + search.errors).split(separator: "\n").map(String.init))
            #expect(lines.contains("label = \(item.label)"), "\(search.output)")
            for pair in stride(from: 0, to: item.attributes.count, by: 2) {
                // secret-tool shows xdg:schema as "schema".
                let name = item.attributes[pair] == "xdg:schema" ? "schema" : "attribute.\(item.attributes[pair])"
                #expect(lines.contains("\(name) = \(item.attributes[pair + 1])"), "\(lines)")
            }
        }
        #expect(try bus.keychainctl("find-generic-password", "-s", "wiki.example", "-a", "eve", "-w").output == "one\n")
    }

    /// With no provider on the bus there is nothing to import from: a clear error, status 1.
    @Test func withNoProviderRunningTheImportFailsClearly() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let moved = try bus.run(ProgramProcess("keychain-secret-service").executable.path, ["--import-from-running"])
        #expect(moved.status == 1)
        #expect(moved.errors.contains("cannot import from the running Secret Service provider"), "\(moved.errors)")
    }
}
