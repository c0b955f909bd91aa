import ArgumentParser
import Foundation
import Security

/// `add-generic-password` and `add-internet-password`.
struct AddPassword<Fields: PasswordFields>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "add-\(Fields.noun)",
            abstract: "Add \(Fields.itemName) item, to keychainctl's own access group unless --access-group names the app's.",
            discussion: """
                -a and -s are required. The label defaults to the \(Fields.serviceName). Without -U, adding \
                an item that exists already is an error (errSecDuplicateItem, exit status 45); with -U \
                the item the attributes find is updated: the attributes given, and its password when \
                one is given, nothing else (the item keeps its label unless -l is given), in \
                whichever access group it is (only in --access-group's when given); when they find \
                items of several access groups, nothing is changed and the error names the groups \
                (exit status 3): name one with --access-group.

                A new item goes to keychainctl's own access group, keychainctl, which apps do not \
                see: to store a secret for an app, give the app's group with --access-group.

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

    // Not in macOS `security`, whose keychains sync through iCloud by other means: here it is
    // how an item from the command line joins `keychainctl sync`.
    @Flag(help: "Make the new item synchronizable (kSecAttrSynchronizable): keychainctl sync sends it to the group's other machines.")
    var synchronizable = false

    @OptionGroup var keychain: KeychainOptions

    func validate() throws {
        guard fields.namesItem else {
            throw ValidationError("-a <account> and -s <\(Fields.serviceName)> are required.")
        }
    }

    /// As `security`'s do_add_*_password: with -U, update the item the attributes find,
    /// else add. The item may be another program's: an administrator rotating an app's
    /// secret must change the app's item, not add a copy the app never sees.
    func run() throws {
        try keychain.runAdding { store in
            let secret = try password.read()
            // With -U, another process (a sync agent, say) may add or delete the item between
            // the search and the change: the other path is then taken, once.
            for attempt in 1...2 {
                if update, let existing = try store.firstInOneGroup(
                    keychain.narrowed(fields.updateSearch), during: "add-\(Fields.noun)") {
                    var changes = fields.changes
                    changes[kSecValueData as String] = secret
                    do {
                        try store.update(existing, with: changes)
                        return
                    } catch let failure as ToolFailure where failure.status == errSecItemNotFound && attempt == 1 {
                        // Deleted since it was found: added below.
                    }
                }
                var attributes = fields.newItem
                attributes[kSecClass as String] = Fields.itemClass
                attributes[kSecValueData as String] = secret ?? Data()
                if synchronizable { attributes[kSecAttrSynchronizable as String] = true }
                do {
                    try store.add(attributes)
                    return
                } catch let failure as ToolFailure where update && failure.status == errSecDuplicateItem && attempt == 1 {
                    // Added since the search found nothing: updated on the second attempt.
                }
            }
        }
    }

}
