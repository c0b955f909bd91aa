import Foundation
import Testing
import TestSupport

/// `account` and `username` name one thing, the keychain item's account: Python keyring stores
/// `service`, `username` and `application`, keychainctl a service and an account. An item's
/// account is its `account` attribute, else its `username`; with both, `account` wins and
/// `username` stays a plain attribute; a search by `username` searches the account.
@Suite struct AccountMappingTests {
    /// Runs `script` with Debian's python3 and keyring on `bus`, with no keyring configuration
    /// of the machine's.
    private func keyring(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        let home = bus.dataHome.appendingPathComponent("keyring-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return try bus.runClient(
            "/usr/bin/python3", ["-c", "import keyring\n" + script],
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path, "PYTHON_KEYRING_BACKEND": nil])
    }

    /// A password added with keychainctl is keyring's password of that service and username:
    /// get_password finds it, delete_password deletes the keychain item.
    @Test func keyringFindsAndDeletesAPasswordAddedWithKeychainctl() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let added = try bus.keychainctl("add-generic-password", "-s", "cli.example", "-a", "ann", "-w", "from-cli")
            #expect(added.status == 0, "\(added.errors)")
            let read = try keyring(bus, """
                print(keyring.get_password('cli.example', 'ann'))
                print(keyring.get_password('cli.example', 'bob'))
                keyring.delete_password('cli.example', 'ann')
                """)
            #expect(read.status == 0, "\(read.errors)")
            #expect(read.output == "from-cli\nNone\n")
            #expect(try bus.keychainctl("find-generic-password", "-s", "cli.example", "-a", "ann").status != 0)
        }
    }

    /// A password stored with keyring (`username`) is found by a search by `account`, as
    /// secret-tool and keychainctl name it.
    @Test func aKeyringPasswordIsFoundByItsAccount() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let stored = try keyring(bus, "keyring.set_password('pypi.example', 'cat', 'tok')")
            #expect(stored.status == 0, "\(stored.errors)")
            let lookup = try bus.secretTool("lookup", "service", "pypi.example", "account", "cat")
            #expect(lookup.status == 0, "\(lookup.errors)")
            #expect(lookup.output == "tok")
            #expect(try bus.keychainctl("find-generic-password", "-s", "pypi.example", "-a", "cat", "-w").output == "tok\n")
        }
    }

    /// With both `account` and `username`, `account` is the keychain account and `username`
    /// a plain attribute: found by either, but a search of the account by the username's
    /// value finds nothing.
    @Test func accountWinsOverUsernameWhenBothAreGiven() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let stored = try bus.secretTool("store", "--label", "L", "service", "both.example", "account", "acct-x",
                                            "username", "user-u", input: "pw")
            #expect(stored.status == 0, "\(stored.errors)")
            #expect(try bus.keychainctl("find-generic-password", "-s", "both.example", "-a", "acct-x", "-w").output == "pw\n")
            #expect(try bus.keychainctl("find-generic-password", "-s", "both.example", "-a", "user-u").status != 0)
            #expect(try bus.secretTool("lookup", "service", "both.example", "username", "user-u").output == "pw")
            #expect(try bus.secretTool("lookup", "service", "both.example", "username", "acct-x").output == "pw")
            #expect(try bus.secretTool("lookup", "service", "both.example", "account", "user-u").status != 0)
        }
    }
}
