import ArgumentParser
import Foundation
import Security

/// `search`: every password item whose attributes equal those given, as `secret-tool
/// search` lists them; attributes only, the secrets when asked for with -d.
struct SearchItems: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "List the password items whose attributes equal those given, in every access group or --access-group's.",
        discussion: """
            Each argument is name=value: account, service, server, label, comment, kind, generic, \
            creator, type, domain, path, port, protocol or authtype, or the four-character code the \
            attribute blocks show (acct, svce, srvr, ...). An item matches when it has every one; \
            service and generic are attributes of generic passwords, server, domain, path, port, \
            protocol and authtype of internet passwords, so naming one searches that class alone. \
            With no argument, every password item is listed.

            Each match is printed as find-generic-password prints an item (or, with --json, as an \
            array); its password only with -d. Generic passwords come first, then internet \
            passwords, each in the order they were added. No match exits 44 (errSecItemNotFound). \
            An item that fails to open is skipped and listed on standard error, as in dump-keychain \
            (exit status 93).

            keychainctl search service=example.com account=alice
            """)

    /// `-k`, as the archive subcommands take it: the arguments are the attributes.
    @OptionGroup var keychain: ArchiveKeychainOption

    @Option(name: .customLong("access-group"),
            help: ArgumentHelp("Only items of this access group.", valueName: "group"))
    var accessGroup: String?

    @Flag(name: .customShort("d"), help: "Also show each item's data (its password).")
    var withData = false

    @Flag(name: .customLong("json"), help: "Print the items as a JSON array; their data only with -d.")
    var json = false

    @Argument(help: ArgumentHelp("An attribute the items must have, such as service=example.com.",
                                 valueName: "name=value"))
    var attributes: [String] = []

    func validate() throws {
        _ = try queries()
    }

    /// A query per class that has every attribute given; a usage error when an argument is
    /// not an attribute or no class has them all.
    func queries() throws -> [[String: Any]] {
        let parsed: [SearchAttribute]
        do {
            parsed = try attributes.map { argument throws(SearchAttributeError) in try SearchAttribute(parsing: argument) }
        } catch {
            throw ValidationError(error.description)
        }
        let classes = [kSecClassGenericPassword as String, kSecClassInternetPassword as String]
            .filter { itemClass in parsed.allSatisfy { $0.definition.classes.contains(itemClass) } }
        guard !classes.isEmpty else {
            throw ValidationError("No item has both a service or generic attribute (generic passwords) and a server, "
                + "domain, path, port, protocol or authtype (internet passwords).")
        }
        return classes.map { itemClass in
            var query: [String: Any] = [
                kSecClass as String: itemClass, kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            ]
            for attribute in parsed { query[attribute.definition.key] = attribute.value }
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }
    }

    func run() throws {
        let location = keychain.location
        let queries = try queries()
        let (items, skipped, path) = try location.runSeeingEveryGroup { store in
            let found = try queries.map { try store.readable($0, withData: withData) }
            return (found.flatMap(\.items), found.flatMap(\.skipped), store.keychainPath)
        }
        if json {
            if !items.isEmpty {
                try ItemJSON.write(items.map { ItemJSON.object(for: $0, keychainPath: path, withData: withData) })
            }
        } else {
            ConsoleOutput.write(items.map { AttributeBlock.text(for: $0, keychainPath: path, withData: withData) }.joined())
        }
        try UnreadableItemsReport.check(skipped, during: "search", othersWere: "shown")
        if items.isEmpty { throw ToolFailure.status(errSecItemNotFound, during: "search") }
    }
}
