import Foundation
import Testing
import TestSupport

/// libsecret's own client, secret-tool, against the provider: what users and the programs
/// built on libsecret's simple API (secret_password_store/lookup/search/clear) rely on.
@Suite struct SecretToolTests {
    /// Secret Service API: CreateItem stores, SearchItems + GetSecrets look up, Item.Delete clears.
    @Test func storeLookupSearchAndClearGoThroughTheProvider() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let stored = try bus.secretTool("store", "--label", "Mail password", "service", "mail.example.com",
                                            "account", "ann", input: "s3cret pass")
            #expect(stored.status == 0, "\(stored.errors)")

            let lookup = try bus.secretTool("lookup", "service", "mail.example.com", "account", "ann")
            #expect(lookup.status == 0, "\(lookup.errors)")
            #expect(lookup.output == "s3cret pass")

            let search = try bus.secretTool("search", "--all", "service", "mail.example.com")
            #expect(search.status == 0, "\(search.errors)")
            let lines = Set((search.output + search.errors).split(separator: "\n").map(String.init))
            #expect(lines.contains("label = Mail password"))
            #expect(lines.contains("secret = s3cret pass"))
            #expect(lines.contains("attribute.service = mail.example.com"))
            #expect(lines.contains("attribute.account = ann"))

            let clear = try bus.secretTool("clear", "service", "mail.example.com", "account", "ann")
            #expect(clear.status == 0, "\(clear.errors)")
            let gone = try bus.secretTool("lookup", "service", "mail.example.com", "account", "ann")
            #expect(gone.status != 0)
            #expect(gone.output == "")
        }
    }

    /// Mapping: a search matches an item when every given pair is one of its attributes,
    /// whichever attributes those are (here a schema's, with no service or account).
    @Test func searchByAnyAttributeSetMatchesEveryGivenPair() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            for (server, secret) in [("a.example", "alpha"), ("b.example", "beta")] {
                let stored = try bus.secretTool("store", "--label", "Server \(server)", "xdg:schema", "org.example.Servers",
                                                "server", server, "port", "993", input: secret)
                #expect(stored.status == 0, "\(stored.errors)")
            }
            #expect(try bus.secretTool("lookup", "server", "b.example").output == "beta")
            #expect(try bus.secretTool("lookup", "server", "a.example", "port", "993").output == "alpha")
            // A pair no item has matches nothing, even with pairs that do match.
            #expect(try bus.secretTool("lookup", "server", "a.example", "port", "994").status != 0)
            let both = try bus.secretTool("search", "--all", "xdg:schema", "org.example.Servers")
            let secrets = (both.output + both.errors).split(separator: "\n").filter { $0.hasPrefix("secret = ") }
            #expect(Set(secrets) == ["secret = alpha", "secret = beta"])
        }
    }

    /// libsecret stores with `replace`: storing the same attributes again changes that item
    /// (its secret and label) and keeps its object path, rather than adding a second one.
    @Test func storingTheSameAttributesAgainReplacesTheItemAndKeepsItsPath() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.secretTool("store", "--label", "one", "service", "S", "account", "A", input: "first").status == 0)
            let before = try bus.call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "SearchItems",
                                      "a{ss}", "2", "service", "S", "account", "A")
            #expect(try bus.secretTool("store", "--label", "two", "service", "S", "account", "A", input: "second").status == 0)
            let after = try bus.call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "SearchItems",
                                     "a{ss}", "2", "service", "S", "account", "A")
            #expect(before.output.hasPrefix("aoao 1 \"/org/freedesktop/secrets/collection/login/"), "\(before)")
            #expect(after.output == before.output)
            #expect(try bus.secretTool("lookup", "service", "S", "account", "A").output == "second")
            let search = try bus.secretTool("search", "--all", "service", "S")
            let labels = (search.output + search.errors).split(separator: "\n").filter { $0.hasPrefix("label = ") }
            #expect(labels == ["label = two"])
        }
    }
}
