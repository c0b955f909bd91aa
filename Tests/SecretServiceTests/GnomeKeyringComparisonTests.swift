import Foundation
import Testing
import TestSupport

/// The same client calls against GNOME Keyring and against the provider, each on a private
/// bus of its own, with the same answers: the aliases (`default`, `login`, `session`, an
/// unknown one), the collections listed, secret-tool storing in and reading from the session
/// collection, the collections and items introspection shows, and secret-tool listing the
/// items of a locked login collection without their secrets. Item paths differ between the
/// two (GNOME Keyring numbers its items), so they are compared as ITEM.
@Suite struct GnomeKeyringComparisonTests {
    static let service = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let collections = "/org/freedesktop/secrets/collection/"

    /// What a client sees of the Secret Service on `bus`, one observation a line.
    private func observe(_ bus: PrivateSessionBus) throws -> [String] {
        var seen: [String] = []
        for alias in ["default", "login", "session", "work"] {
            seen.append("ReadAlias \(alias): " + (try bus.call(Self.service, Self.serviceInterface, "ReadAlias", "s", alias).output))
        }
        let listed = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", Self.service,
                                                     Self.serviceInterface, "Collections"])
        // In no particular order: GNOME Keyring's varies.
        let paths = listed.output.split(separator: " ").dropFirst(2).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        seen.append("Collections: " + listed.output.prefix(5) + paths.sorted().joined(separator: " "))
        let stored = try bus.secretTool("store", "--collection=session", "--label=Session note", "service", "compare.example",
                                        "account", "ann", input: "in memory")
        seen.append("store in session: \(stored.status)")
        let lookup = try bus.secretTool("lookup", "service", "compare.example", "account", "ann")
        seen.append("lookup: \(lookup.status) \(lookup.output)")
        let search = try bus.call(Self.collections + "session", "org.freedesktop.Secret.Collection", "SearchItems", "a{ss}",
                                  "1", "service", "compare.example")
        seen.append("session SearchItems: " + Self.anonymized(search.output))
        #expect(try bus.secretTool("store", "--label=Kept", "service", "kept.example", "account", "me", input: "k").status == 0)
        let tree = try bus.run("/usr/bin/busctl", ["--user", "tree", "--list", "org.freedesktop.secrets"])
        let nodes = tree.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(Self.collections) }
        seen.append("tree: " + Set(nodes.map(Self.anonymized)).sorted().joined(separator: " "))
        let lock = try bus.call(Self.service, Self.serviceInterface, "Lock", "ao", "1", Self.collections + "login")
        seen.append("Lock login: " + lock.output)
        let locked = try bus.secretTool("search", "--all", "service", "kept.example")
        // secret-tool writes the attributes to standard error.
        let lines = (locked.output + locked.errors).split(separator: "\n").map(String.init)
        seen.append("search --all while locked: \(locked.status), "
                    + "attribute \(lines.contains("attribute.service = kept.example")), "
                    + "secret \(lines.contains { $0.hasPrefix("secret = ") })")
        return seen
    }

    /// `text` with each item's path element (after a collection's) as ITEM.
    private static func anonymized(_ text: String) -> String {
        text.replacing(/(\/org\/freedesktop\/secrets\/collection\/[A-Za-z0-9_]+)\/[A-Za-z0-9_]+/) { "\($0.output.1)/ITEM" }
    }

    /// SetAlias of `default`, as GNOME Keyring answers it: a path of no collection is
    /// InvalidArgs, a collection that is not there NoSuchObject, and "/" is accepted with the
    /// login collection still the default after it. (GNOME Keyring refuses every other alias
    /// with NotSupported, which the API allows; CollectionAliasTests covers ours.)
    private func observeSetAlias(_ bus: PrivateSessionBus) throws -> [String] {
        var seen: [String] = []
        for path in [Self.collections + "nothere", "/not/a/collection", "/"] {
            let sent = try bus.run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.secrets",
                                                          Self.service, Self.serviceInterface + ".SetAlias",
                                                          "string:default", "objpath:" + path])
            // The error's name only: the messages are each provider's own.
            let answer = sent.status == 0 ? "ok" : String(sent.errors.split(separator: ":").first ?? "")
            seen.append("SetAlias default \(path): \(answer)")
        }
        seen.append("ReadAlias default: " + (try bus.call(Self.service, Self.serviceInterface, "ReadAlias", "s", "default").output))
        return seen
    }

    /// What `observe` sees from GNOME Keyring, then from our provider, each on a bus of its own.
    private func answers(_ observe: (PrivateSessionBus) throws -> [String]) throws -> (reference: [String], seen: [String]) {
        let reference: [String]
        do {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let gnome = try ProviderImportTests.GnomeKeyring(on: bus)
            defer { gnome.stop() }
            reference = try observe(bus)
        }
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        try bus.startProvider()
        return (reference, try observe(bus))
    }

    @Test func setAliasOfDefaultAnswersAsGnomeKeyringDoes() throws {
        let (reference, seen) = try answers(observeSetAlias)
        #expect(seen == reference)
        #expect(reference == [
            "SetAlias default \(Self.collections)nothere: Error org.freedesktop.Secret.Error.NoSuchObject",
            "SetAlias default /not/a/collection: Error org.freedesktop.DBus.Error.InvalidArgs",
            "SetAlias default /: ok",
            "ReadAlias default: o \"\(Self.collections)login\"\n",
        ], "\(reference)")
    }

    @Test func clientsSeeTheSameAsFromGnomeKeyring() throws {
        let (reference, seen) = try answers(observe)
        #expect(seen == reference)
        // What GNOME Keyring answers, so that the comparison is not of two empty answers.
        #expect(reference.contains("ReadAlias session: o \"\(Self.collections)session\"\n"), "\(reference)")
        #expect(reference.contains("lookup: 0 in memory"), "\(reference)")
        #expect(reference.last == "search --all while locked: 0, attribute true, secret false", "\(reference)")
    }
}
