import ArgumentParser
import Foundation
import Security

/// `dump-keychain`: every item of the keychain, of every class it stores.
struct DumpKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-keychain",
        abstract: "Show every item of a keychain, of every access group or --access-group's.",
        discussion: """
            Generic and internet passwords, certificates and keys, each class in the order its items \
            were added, of every access group (or only --access-group's).

            An item that fails to open (its row damaged or altered) is skipped: the other items are \
            shown, the skipped ones are listed on standard error by row, class and protection class, \
            and the exit status is 93 (errSecDecode).
            """)

    @Flag(name: .customShort("d"), help: "Also show each item's data (its password).")
    var withData = false

    @Flag(name: .customLong("json"), help: "Print the items as a JSON array; their data only with -d.")
    var json = false

    @OptionGroup var keychain: KeychainOptions

    /// The classes the store holds; identities are formed from a certificate and a key and
    /// are not stored.
    private static let classes = [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey]
        .map { $0 as String }

    /// Lists the references first, then opens each item alone: an item that fails to open is
    /// skipped and reported (see ``UnreadableItemsReport``) rather than failing the dump.
    func run() throws {
        let (items, skipped, path) = try keychain.run { store in
            var items: [KeychainItem] = []
            var skipped: [SecUnreadableItem] = []
            for itemClass in Self.classes {
                let found = try store.readable(keychain.narrowed([
                    kSecClass as String: itemClass,
                    kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
                ]), withData: withData)
                items += found.items
                skipped += found.skipped
            }
            return (items, skipped, store.keychainPath)
        }
        if json {
            try ItemJSON.write(items.map { ItemJSON.object(for: $0, keychainPath: path, withData: withData) })
        } else {
            ConsoleOutput.write(items.map { AttributeBlock.text(for: $0, keychainPath: path, withData: withData) }.joined())
        }
        try UnreadableItemsReport.check(skipped, during: "dump-keychain", othersWere: "shown")
    }
}
