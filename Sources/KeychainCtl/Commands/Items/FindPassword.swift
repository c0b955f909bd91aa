import ArgumentParser
import Foundation
import Security

/// `find-generic-password` and `find-internet-password`: the first item the attributes
/// match, as `security` shows it.
struct FindPassword<Fields: PasswordFields>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "find-\(Fields.noun)",
            abstract: "Find \(Fields.itemName) item.",
            discussion: """
                Every attribute option is optional; the first item that matches all of them is shown \
                (when -a and -s name the whole key, the other attributes are not compared, as in \
                security). Without -g or -w, its attributes are printed on standard output. No match \
                exits 44 (errSecItemNotFound).
                """)
    }

    @OptionGroup var fields: Fields

    @Flag(name: .customShort("g"), help: "Also print the password on standard error, as password: \"...\".")
    var showPassword = false

    @Flag(name: .customShort("w"),
          help: "Print only the password and a newline (in lowercase hex if a byte is not printable ASCII).")
    var passwordOnly = false

    @Flag(name: .customLong("json"),
          help: "Print the item as JSON; its password (data) only with -g or -w.")
    var json = false

    @OptionGroup var keychain: KeychainOptions

    func run() throws {
        let query = keychain.narrowed(fields.search(fields.given))
        if passwordOnly, !json {
            let secret = try keychain.run { store in try store.existingSecret(query) }
            ConsoleOutput.write(SecurityText.password(secret) + "\n")
            return
        }
        let withData = showPassword || passwordOnly
        let (item, path) = try keychain.run { store in (try store.existing(query, withData: withData), store.keychainPath) }
        if json {
            try ItemJSON.write(ItemJSON.object(for: item, keychainPath: path, withData: withData))
            return
        }
        ConsoleOutput.write(AttributeBlock.text(for: item, keychainPath: path, withData: false))
        if showPassword {
            ConsoleOutput.error("password: " + SecurityText.buffer(item.data ?? Data()))
        }
    }
}
