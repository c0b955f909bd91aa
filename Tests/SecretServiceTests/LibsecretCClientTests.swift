import Foundation
import Testing
import TestSupport

/// A C program on libsecret's password API with a schema (Tests/SecretServiceClients/
/// libsecret-client.c), as GNOME programs, NetworkManager applets and the like use it:
/// secret_password_storev_sync, lookupv, searchv (every match, secrets loaded) and clearv.
/// Its results are checked against secret-tool and keychainctl, which read the same items
/// through other paths.
@Suite struct LibsecretCClientTests {
    /// libsecret-client.c, built once for the test process.
    static let client = CProgram.build(
        "libsecret-client", sources: [clientSources.appendingPathComponent("libsecret-client.c")], packages: ["libsecret-1"])

    private func client(_ bus: PrivateSessionBus, _ arguments: String..., input: String = "") throws -> ProgramProcess.Outcome {
        try bus.runClient(try Self.client.get().path, arguments, input: input)
    }

    /// Secret Service API through libsecret: a stored password is found by its schema's
    /// attributes (the integer `port` as its decimal text), `xdg:schema` is kept, and the
    /// item is the keychain's, with its label, for keychainctl.
    @Test func storeThenLookupFindsThePasswordBySchemaAttributes() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let stored = try client(bus, "store", "Mail (IMAP)", "imap sécret", "server", "mail.example", "port", "993",
                                    "user", "ann")
            #expect(stored.status == 0, "\(stored.errors)")
            let lookup = try client(bus, "lookup", "server", "mail.example", "port", "993")
            #expect(lookup.status == 0, "\(lookup.errors)")
            #expect(lookup.output == "imap sécret\n")
            // secret-tool, another reader, sees the schema name and the integer as text.
            let search = try bus.secretTool("search", "--all", "server", "mail.example")
            let lines = Set((search.output + search.errors).split(separator: "\n").map(String.init))
            #expect(lines.isSuperset(of: ["label = Mail (IMAP)", "secret = imap sécret", "schema = org.example.KeychainTest",
                                          "attribute.port = 993", "attribute.user = ann"]), "\(lines)")
            let found = try bus.keychainctl("find-generic-password", "-l", "Mail (IMAP)", "-w")
            #expect(found.status == 0, "\(found.errors)")
            // -w prints a password with a byte outside printable ASCII in hex, as security does.
            #expect(found.output == Data("imap sécret".utf8).map { String(format: "%02x", $0) }.joined() + "\n")
        }
    }

    /// Search (SECRET_SEARCH_ALL | LOAD_SECRETS) returns every item whose attributes include
    /// the given ones, each with its own secret; storing the same attributes again replaces
    /// that item's secret and label rather than adding one.
    @Test func searchReturnsEveryMatchAndStoreReplacesTheSameAttributes() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            for (label, secret, port) in [("IMAP", "one", "993"), ("SMTP", "two", "465"), ("IMAP", "three", "993")] {
                let stored = try client(bus, "store", label, secret, "server", "mail.example", "port", port, "user", "ann")
                #expect(stored.status == 0, "\(stored.errors)")
            }
            #expect(try client(bus, "store", "Other", "four", "server", "other.example", "port", "993", "user", "ann").status == 0)
            let search = try client(bus, "search", "server", "mail.example")
            #expect(search.status == 0, "\(search.errors)")
            let schema = "xdg:schema=org.example.KeychainTest"
            #expect(Set(search.output.split(separator: "\n").map(String.init)) == [
                "IMAP\tthree\tport=993\tserver=mail.example\tuser=ann\t\(schema)",
                "SMTP\ttwo\tport=465\tserver=mail.example\tuser=ann\t\(schema)",
            ])
            let byPort = try client(bus, "search", "port", "993")
            #expect(byPort.output.split(separator: "\n").count == 2, "\(byPort.output)")
        }
    }

    /// Clear deletes what matches and reports whether it deleted anything (exit 1 when
    /// nothing matched); other items stay. A lookup of nothing is NULL, not an error.
    @Test func clearDeletesOnlyTheMatchingItemsAndSaysWhenNothingMatched() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try client(bus, "store", "IMAP", "one", "server", "mail.example", "port", "993", "user", "ann").status == 0)
            #expect(try client(bus, "store", "SMTP", "two", "server", "mail.example", "port", "465", "user", "ann").status == 0)
            let cleared = try client(bus, "clear", "server", "mail.example", "port", "993")
            #expect(cleared.status == 0, "\(cleared.errors)")
            let again = try client(bus, "clear", "server", "mail.example", "port", "993")
            #expect(again.status == 1, "\(again.errors)")
            let gone = try client(bus, "lookup", "server", "mail.example", "port", "993")
            #expect(gone.status == 1)
            #expect(gone.output == "")
            #expect(gone.errors == "")
            #expect(try client(bus, "lookup", "port", "465").output == "two\n")
            // The keychain item went with it.
            #expect(try bus.keychainctl("find-generic-password", "-l", "IMAP").status == 44)
        }
    }

    /// Bounds: a secret of more than 1 MiB is refused, and libsecret hands the client the
    /// provider's message (exit 2) with nothing stored; one of exactly 1 MiB is stored whole.
    @Test func aSecretOverOneMebibyteFailsWithTheProvidersMessage() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let tooBig = try client(bus, "store", "Big", "-", "server", "big.example",
                                    input: String(repeating: "x", count: 1024 * 1024 + 1))
            #expect(tooBig.status == 2)
            #expect(tooBig.errors == "secret_password_storev_sync: the secret is 1048577 bytes, more than 1048576\n")
            #expect(try client(bus, "lookup", "server", "big.example").status == 1)
            let whole = String(repeating: "y", count: 1024 * 1024)
            #expect(try client(bus, "store", "Big", "-", "server", "big.example", input: whole).status == 0)
            #expect(try client(bus, "lookup", "server", "big.example").output == whole + "\n")
        }
    }
}
