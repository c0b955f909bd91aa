import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A collection's Created and Modified (Secret Service API 0.2, org.freedesktop.Secret.Collection:
/// "the unix time when the collection was created / last modified", uint64) are real times
/// of its keychain, read with busctl: Created is the database file's birth time, as coreutils'
/// `stat` reads it, and Modified follows the keychain's files, moving on a write and not on
/// reads.
@Suite struct CollectionTimesTests {
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let work = "/org/freedesktop/secrets/collection/work"

    /// A `t` property of the collection at `path`, read by busctl; nil with busctl's errors when
    /// it failed.
    private func time(_ bus: PrivateSessionBus, _ property: String, of path: String = work) throws -> UInt64 {
        let outcome = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", path,
                                                      Self.collectionInterface, property])
        guard outcome.status == 0, outcome.output.hasPrefix("t "),
              let value = UInt64(outcome.output.dropFirst(2).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw TestFailure("\(property) of \(path): \(outcome.output) \(outcome.errors)") }
        return value
    }

    /// The keychain `name`'s file `suffix` (`-wal`), in the bus's keychain folder.
    private func file(_ bus: PrivateSessionBus, _ name: String, _ suffix: String = "") -> String {
        bus.dataHome.appendingPathComponent("keychains/\(name).keychain-db\(suffix)").path
    }

    /// Sets the modification time of the keychain's database and write-ahead log (where there is
    /// one) to `seconds`, as a restored backup would have it.
    private func setModified(_ bus: PrivateSessionBus, _ name: String, to seconds: Int) throws {
        for path in [file(bus, name), file(bus, name, "-wal")] where FileManager.default.fileExists(atPath: path) {
            let touch = try bus.run("/usr/bin/touch", ["-h", "-m", "-d", "@\(seconds)", path])
            #expect(touch.status == 0, "\(touch.errors)")
        }
    }

    /// Created is when the keychain was made (its database's birth time, as `stat -c %W` reads
    /// it where the filesystem records one; Modified elsewhere), not 0; Modified is not before
    /// Created. Reading the collection (Items, Label, SearchItems, a secret) leaves Modified as
    /// it was; storing an item moves it forward, past a time set back with `touch`.
    @Test func createdIsTheKeychainsBirthAndModifiedMovesOnAWrite() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let before = UInt64(Glibc.time(nil))
            #expect(try bus.keychainctl("create-keychain", "-p", "x", "work").status == 0)
            let after = UInt64(Glibc.time(nil))
            let created = try time(bus, "Created")
            let modified = try time(bus, "Modified")
            #expect(created >= before && created <= after, "Created \(created) is not between \(before) and \(after)")
            #expect(modified >= created)
            let birth = try bus.run("/usr/bin/stat", ["-c", "%W", file(bus, "work")]).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(birth == "0" ? created == modified : "\(created)" == birth, "stat's birth time \(birth), Created \(created)")

            let store = try bus.secretTool("store", "--label=Wiki", "--collection=\(Self.work)", "service", "wiki.example",
                                           "account", "eve", input: "first")
            #expect(store.status == 0, "\(store.errors)")
            // Set back by a day: a reading call must leave it there, a write must move it on.
            let dayAgo = Int(Glibc.time(nil)) - 86_400
            try setModified(bus, "work", to: dayAgo)
            #expect(try time(bus, "Modified") == UInt64(dayAgo))
            #expect(try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", Self.work,
                                                    Self.collectionInterface, "Items"]).status == 0)
            #expect(try bus.secretTool("lookup", "service", "wiki.example", "account", "eve").output == "first")
            #expect(try time(bus, "Modified") == UInt64(dayAgo))
            if birth != "0" { #expect(try time(bus, "Created") == created) }

            let beforeWrite = UInt64(Glibc.time(nil))
            let second = try bus.secretTool("store", "--label=Mail", "--collection=\(Self.work)", "service", "mail.example",
                                            "account", "eve", input: "second")
            #expect(second.status == 0, "\(second.errors)")
            #expect(try time(bus, "Modified") >= beforeWrite)
        }
    }

    /// The times of a collection whose keychain was deleted (here by keychainctl, behind the
    /// provider's back) are NoSuchObject, as its other properties; the provider keeps serving.
    @Test func aDeletedCollectionsTimesAreNoSuchObject() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.keychainctl("create-keychain", "-p", "x", "work").status == 0)
            #expect(try time(bus, "Created") > 0)
            #expect(try bus.keychainctl("delete-keychain", "work").status == 0)
            for property in ["Created", "Modified"] {
                let read = try bus.run("/usr/bin/dbus-send", [
                    "--session", "--print-reply", "--dest=org.freedesktop.secrets", Self.work,
                    "org.freedesktop.DBus.Properties.Get", "string:\(Self.collectionInterface)", "string:\(property)"])
                #expect(read.errors.contains("org.freedesktop.Secret.Error.NoSuchObject"), "\(read.errors)")
            }
            #expect(try time(bus, "Created", of: "/org/freedesktop/secrets/collection/login") > 0)
            #expect(bus.providerIsRunning)
        }
    }
}
