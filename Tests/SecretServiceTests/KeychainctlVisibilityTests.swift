import Foundation
import Testing
import TestSupport

/// Mapping onto keychain items: a Secret Service item is a generic password whose service and
/// account are the `service` and `account` attributes, so keychainctl and Secret Service
/// clients see each other's items.
@Suite struct KeychainctlVisibilityTests {
    @Test func anItemAddedWithKeychainctlIsFoundBySecretTool() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let added = try bus.keychainctl("add-generic-password", "-s", "build.example", "-a", "ci", "-w", "token-1")
            #expect(added.status == 0, "\(added.errors)")
            let lookup = try bus.secretTool("lookup", "service", "build.example", "account", "ci")
            #expect(lookup.status == 0, "\(lookup.errors)")
            #expect(lookup.output == "token-1")
            // Its attributes are its service and account.
            let search = try bus.secretTool("search", "service", "build.example")
            let attributes = (search.output + search.errors).split(separator: "\n").filter { $0.hasPrefix("attribute.") }
            #expect(Set(attributes) == ["attribute.service = build.example", "attribute.account = ci"])
        }
    }

    /// A synchronizable item (one that sync carries between machines) is the collection's as
    /// much as any other: secret-tool finds it by service and account, and by service alone.
    @Test func aSynchronizableItemIsFoundBySecretTool() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let added = try bus.keychainctl("add-generic-password", "--synchronizable", "-s", "synced.example", "-a", "ci",
                                            "-w", "token-3")
            #expect(added.status == 0, "\(added.errors)")
            let lookup = try bus.secretTool("lookup", "service", "synced.example", "account", "ci")
            #expect(lookup.output == "token-3", "\(lookup.errors)")
            let search = try bus.secretTool("search", "service", "synced.example")
            #expect((search.output + search.errors).contains("attribute.account = ci"), "\(search.errors)")
        }
    }

    @Test func anItemStoredWithSecretToolIsSeenByKeychainctl() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let stored = try bus.secretTool("store", "--label", "Deploy key", "service", "deploy.example", "account", "bot",
                                            input: "token-2")
            #expect(stored.status == 0, "\(stored.errors)")
            let found = try bus.keychainctl("find-generic-password", "-s", "deploy.example", "-a", "bot", "-w")
            #expect(found.status == 0, "\(found.errors)")
            #expect(found.output == "token-2\n")
            let attributes = try bus.keychainctl("find-generic-password", "-s", "deploy.example", "-a", "bot")
            // The label is kSecAttrLabel, which `security` prints as attribute 7.
            #expect(attributes.output.contains("    0x00000007 <blob>=\"Deploy key\"\n"), "\(attributes.output)")
        }
    }

    /// `username` stands for the account when no `account` attribute is given.
    @Test func theUsernameAttributeIsTheKeychainAccount() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.secretTool("store", "--label", "L", "service", "db.example", "username", "root", input: "pw").status == 0)
            let found = try bus.keychainctl("find-generic-password", "-s", "db.example", "-a", "root", "-w")
            #expect(found.output == "pw\n", "\(found.errors)")
        }
    }

    /// An item deleted with keychainctl is gone for Secret Service clients too.
    @Test func anItemDeletedWithKeychainctlIsGoneForSecretTool() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.secretTool("store", "--label", "L", "service", "gone.example", "account", "x", input: "pw").status == 0)
            #expect(try bus.keychainctl("delete-generic-password", "-s", "gone.example", "-a", "x").status == 0)
            #expect(try bus.secretTool("lookup", "service", "gone.example", "account", "x").status != 0)
        }
    }
}
