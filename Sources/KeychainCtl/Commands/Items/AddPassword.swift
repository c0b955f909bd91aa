import ArgumentParser
import Foundation
import Security

/// `add-generic-password` and `add-internet-password`.
struct AddPassword<Fields: PasswordFields>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "add-\(Fields.noun)",
            abstract: "Add \(Fields.itemName) item.",
            discussion: """
                -a and -s are required. The label defaults to the \(Fields.serviceName). Without -U, adding \
                an item that exists already is an error (errSecDuplicateItem, exit status 45); with -U \
                the first item the attributes find is updated, its password too when one is given.

                The password: -w <password>; or -w as the last argument, to be asked twice without \
                echo; or --password-stdin, to read it from a pipe \
                (printf %s "$TOKEN" | keychainctl add-\(Fields.noun) -a alice -s example.com --password-stdin), \
                at most 64 KiB; empty input is refused (errSecParam, exit status 206) unless --allow-empty \
                is given, so that an unset variable never stores an empty password. With none, the item \
                has an empty password.
                """)
    }

    @OptionGroup var fields: Fields
    @OptionGroup var password: NewPasswordOptions

    @Flag(name: .customShort("U"), help: "Update the item if it already exists.")
    var update = false

    @Option(name: .customShort("T"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp(
                "Accepted for compatibility and ignored: keychains on Linux have no per-application access lists.",
                valueName: "app"))
    var trustedApplications: [String] = []

    @Flag(name: .customShort("A"), help: "Accepted for compatibility and ignored, as -T is.")
    var anyApplication = false

    @OptionGroup var keychain: KeychainOptions

    func validate() throws {
        guard fields.namesItem else {
            throw ValidationError("-a <account> and -s <\(Fields.serviceName)> are required.")
        }
    }

    /// As `security`'s do_add_*_password: with -U, update the first item the attributes
    /// find, else add.
    func run() throws {
        try keychain.runAdding { store in
            let secret = try password.read()
            if update, let existing = try store.first(fields.search(fields.newItem), withData: false) {
                var changes = fields.changes
                changes[kSecValueData as String] = secret
                try store.update(existing, with: changes)
                return
            }
            var attributes = fields.newItem
            attributes[kSecClass as String] = Fields.itemClass
            attributes[kSecValueData as String] = secret ?? Data()
            try store.add(attributes)
        }
    }
}
