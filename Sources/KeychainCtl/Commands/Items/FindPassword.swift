import ArgumentParser
import Foundation
import Security

/// `find-generic-password` and `find-internet-password`: the first item the attributes
/// match, as `security` shows it.
struct FindPassword<Fields: PasswordFields>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "find-\(Fields.noun)",
            abstract: "Find \(Fields.itemName) item, in any access group or --access-group's.",
            discussion: """
                Every attribute option is optional; the first item that matches all of them is shown \
                (when -a and -s name the whole key, the other attributes are not compared, as in \
                security). Without -g or -w, its attributes are printed on standard output. No match \
                exits 44 (errSecItemNotFound).

                -w prints a password that has a byte outside printable ASCII (an accent, an emoji, \
                binary data) as lowercase hex, as security does, so that the line is always safe to \
                print. --raw (alone or with -w) prints the password's bytes exactly as stored instead, with no newline \
                added, for a pipe or a file: keychainctl find-\(Fields.noun) -a alice -s example.com \
                --raw > token.bin.
                """)
    }

    @OptionGroup var fields: Fields

    @Flag(name: .customShort("g"), help: "Also print the password on standard error, as password: \"...\".")
    var showPassword = false

    @Flag(name: .customShort("w"),
          help: "Print only the password and a newline (in lowercase hex if a byte is not printable ASCII).")
    var passwordOnly = false

    @Flag(name: .customLong("raw"),
          help: "As -w (which it implies), but the password's bytes exactly as stored, with no newline: never hex.")
    var raw = false

    @Flag(name: .customLong("json"),
          help: "Print the item as JSON; its password (data) only with -g or -w.")
    var json = false

    @OptionGroup var keychain: KeychainOptions

    func validate() throws {
        if raw, json || showPassword {
            throw ValidationError("--raw prints only the password: leave out -g and --json.")
        }
    }

    func run() throws {
        let query = keychain.narrowed(fields.search(fields.given))
        if raw {
            try ConsoleOutput.writeBytes(try keychain.run { store in try store.existingSecret(query) })
            return
        }
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
