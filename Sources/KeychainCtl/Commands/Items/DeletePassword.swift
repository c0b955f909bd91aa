import ArgumentParser
import Foundation
import Security

/// `delete-generic-password` and `delete-internet-password`: the first item the attributes
/// match, shown and then deleted, as `security` does.
struct DeletePassword<Fields: PasswordFields>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "delete-\(Fields.noun)",
            abstract: "Delete \(Fields.itemName) item, of any access group or of --access-group's.",
            discussion: """
                At least one attribute option is required. The first item that matches is printed on \
                standard output and deleted; "password has been deleted." follows on standard error. \
                No match exits 44 (errSecItemNotFound). When the attributes match items of several \
                access groups, nothing is deleted and the error names the groups (exit status 3): \
                name one with --access-group.
                """)
    }

    @OptionGroup var fields: Fields
    @OptionGroup var keychain: KeychainOptions

    func validate() throws {
        guard !fields.named.isEmpty else {
            throw ValidationError("Name the item to delete with at least one attribute option, such as -a or -s.")
        }
    }

    func run() throws {
        let query = keychain.narrowed(fields.search(fields.given))
        try keychain.run { store in
            guard let item = try store.firstInOneGroup(query, during: "delete-\(Fields.noun)") else {
                throw ToolFailure.status(errSecItemNotFound, during: "SecItemCopyMatching")
            }
            ConsoleOutput.write(AttributeBlock.text(for: item, keychainPath: store.keychainPath, withData: false))
            try store.delete(item)
        }
        ConsoleOutput.error("password has been deleted.")
    }
}
