import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The collection's Label is read-write (Secret Service API 0.2) and kept with the keychain
/// itself, sealed like everything the keychain holds: a provider started later reads it back,
/// and neither the database nor its log holds it in plaintext (read with sqlite3's shell).
@Suite struct CollectionLabelTests {
    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        let prelude = """
            import secretstorage
            connection = secretstorage.dbus_init()
            collection = secretstorage.get_default_collection(connection)

            """
        return try bus.run("/usr/bin/python3", ["-c", prelude + script])
    }

    @Test func theLabelIsWritableAndKeptSealedWithTheKeychain() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let label = "Work secrets \u{2713} label-marker"
            let set = try python(bus, """
                print(collection.get_label())
                collection.set_label('\(label)')
                print(collection.get_label())
                """)
            #expect(set.status == 0, "\(set.errors)")
            #expect(set.output == "Login\n\(label)\n")
            // Another provider process reads it from the keychain.
            let first = bus.providers[0]
            first.kill(SIGTERM)
            first.wait()
            try bus.startProvider()
            let read = try python(bus, "print(collection.get_label())")
            #expect(read.output == "\(label)\n", "\(read.errors)")
            // Stored in the keychain's meta table, sealed: no file of the keychain holds it.
            let keychains = bus.dataHome.appendingPathComponent("keychains")
            let database = keychains.appendingPathComponent("login.keychain-db").path
            let rows = try bus.run("/usr/bin/sqlite3", [database, "SELECT length(value) > 28 FROM meta WHERE key = 'label'"])
            #expect(rows.output == "1\n", "\(rows.errors)")
            for name in try FileManager.default.contentsOfDirectory(atPath: keychains.path) {
                let bytes = try Data(contentsOf: keychains.appendingPathComponent(name))
                #expect(bytes.range(of: Data("label-marker".utf8)) == nil, "\(name) holds the label in plaintext")
            }
        }
    }

    /// A label longer than the provider's bound is refused with InvalidArgs; the old one stays.
    @Test func anOverlongLabelIsRefused() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try python(bus, """
                from jeepney.wrappers import DBusErrorResponse
                try:
                    collection.set_label('x' * 4097)
                except DBusErrorResponse as error:
                    print(error.name)
                print(collection.get_label())
                """)
            #expect(outcome.output == "org.freedesktop.DBus.Error.InvalidArgs\nLogin\n", "\(outcome.errors)")
        }
    }
}
