import ArgumentParser
import Foundation
import Security

/// `dump-keychain`: every item of the keychain, of every class it stores.
struct DumpKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-keychain",
        abstract: "Show every item of a keychain.",
        discussion: """
            Generic and internet passwords, certificates and keys, each class in the order its items \
            were added, of every access group (or only --access-group's).
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

    func run() throws {
        let (items, path) = try keychain.run { store in
            let items = try Self.classes.flatMap { itemClass in
                try store.all(keychain.narrowed([
                    kSecClass as String: itemClass,
                    kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
                ]), withData: withData)
            }
            return (items, store.keychainPath)
        }
        if json {
            try ItemJSON.write(items.map { ItemJSON.object(for: $0, keychainPath: path, withData: withData) })
        } else {
            ConsoleOutput.write(items.map { AttributeBlock.text(for: $0, keychainPath: path, withData: withData) }.joined())
        }
    }
}
