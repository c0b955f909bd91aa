import Foundation
import Testing
import TestSupport

/// A provider that nothing can ask the user through: a real pinentry on its PATH, but neither
/// DISPLAY nor WAYLAND_DISPLAY for it to show on, no terminal it could use (the provider
/// talks to it over pipes), and no systemd-ask-password. Clients get a clear error at once,
/// naming what is missing and the keychainctl command that does the same, rather than a
/// prompt that pinentry would refuse and that would end dismissed, as if the user said no.
@Suite struct HeadlessPromptTests {
    static let password = "keychain password"

    /// A private bus whose provider has only pinentry-curses, as `pinentry`, on its PATH, and
    /// no display.
    private func withDisplaylessPinentry(_ body: (PrivateSessionBus) throws -> Void) throws {
        let folder = TestScratch.folder("pinentry-only")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("pinentry").path,
                                                   withDestinationPath: "/usr/bin/pinentry-curses")
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        try bus.startProvider(environment: ["PATH": folder.path, "DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        try body(bus)
    }

    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        try bus.run("/usr/bin/python3", ["-c", "import secretstorage\nconnection = secretstorage.dbus_init()\n" + script])
    }

    /// CreateCollection fails at once with NotSupported, saying pinentry has no display and
    /// to use keychainctl create-keychain; nothing is made.
    @Test func createCollectionSaysPinentryHasNoDisplay() throws {
        try withDisplaylessPinentry { bus in
            let created = try python(bus, """
                from jeepney.wrappers import DBusErrorResponse
                from secretstorage.collection import create_collection
                try:
                    create_collection(connection, 'Work')
                except DBusErrorResponse as error:
                    print(error.name)
                    print(error.data[0])
                """)
            #expect(created.output == """
                org.freedesktop.DBus.Error.NotSupported
                pinentry has no display to show on (keychain-secret-service has neither DISPLAY nor WAYLAND_DISPLAY) \
                and systemd-ask-password is not on its PATH to ask for the new collection's password: create the \
                keychain with keychainctl create-keychain instead

                """, "\(created.output) \(created.errors)")
            #expect(!(try bus.keychainctl("list-keychains").output.contains("Work")))
        }
    }

    /// A locked keychain: secretstorage's unlock gets IsLocked with the same reason and the
    /// command that unlocks it, rather than a dismissed prompt; secret-tool's lookup says how
    /// to unlock it; once keychainctl unlocked it, the lookup succeeds.
    @Test func unlockSaysPinentryHasNoDisplay() throws {
        try withDisplaylessPinentry { bus in
            #expect(try bus.keychainctl("create-keychain", "-p", Self.password, "login").status == 0)
            #expect(try bus.keychainctl("add-generic-password", "-s", "locked.example", "-a", "me", "-w", "pw").status == 0)
            #expect(try bus.keychainctl("lock-keychain", "login").status == 0)
            let unlock = try python(bus, """
                from jeepney.wrappers import DBusErrorResponse
                collection = secretstorage.get_default_collection(connection)
                try:
                    print(collection.unlock())
                except DBusErrorResponse as error:
                    print(error.name)
                    print(error.data[0])
                """)
            #expect(unlock.output == """
                org.freedesktop.Secret.Error.IsLocked
                the keychain login is locked and pinentry has no display to show on (keychain-secret-service has \
                neither DISPLAY nor WAYLAND_DISPLAY) and systemd-ask-password is not on its PATH to ask for its \
                password: unlock it with keychainctl unlock-keychain login

                """, "\(unlock.output) \(unlock.errors)")
            let lookup = try bus.secretTool("lookup", "service", "locked.example", "account", "me")
            #expect(lookup.status != 0 && lookup.output.isEmpty)
            #expect(lookup.errors.contains("unlock it with keychainctl unlock-keychain login"), "\(lookup.errors)")
            #expect(try bus.keychainctl("unlock-keychain", "-p", Self.password, "login").status == 0)
            #expect(try bus.secretTool("lookup", "service", "locked.example", "account", "me").output == "pw")
        }
    }
}
