import Foundation
import Testing
import TestSupport

/// org.freedesktop.Secret.Service and Collection as the API defines them, called with busctl:
/// the login collection and its alias, Unlock and Lock, and what the provider refuses (see
/// CollectionKeychainTests for other keychains).
@Suite struct ServiceInterfaceTests {
    static let service = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let login = "/org/freedesktop/secrets/collection/login"

    /// Collections lists login (and the session collection, see SessionCollectionTests); the
    /// alias default reads as login, unknown aliases as "/"; default can be set to login again
    /// (CollectionAliasTests covers the other aliases).
    @Test func theDefaultAliasNamesTheLoginCollection() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let collections = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", Self.service,
                                                              Self.serviceInterface, "Collections"])
            #expect(collections.output == "ao 2 \"\(Self.login)\" \"/org/freedesktop/secrets/collection/session\"\n",
                    "\(collections.errors)")
            #expect(try bus.call(Self.service, Self.serviceInterface, "ReadAlias", "s", "default").output == "o \"\(Self.login)\"\n")
            #expect(try bus.call(Self.service, Self.serviceInterface, "ReadAlias", "s", "work").output == "o \"/\"\n")
            #expect(try bus.call(Self.service, Self.serviceInterface, "SetAlias", "so", "default", Self.login).status == 0)
            let label = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets",
                                                        "/org/freedesktop/secrets/aliases/default",
                                                        "org.freedesktop.Secret.Collection", "Label"])
            #expect(label.output == "s \"Login\"\n", "\(label.errors)")
        }
    }

    /// Unlock of the unlocked keychain answers every collection and item named as unlocked,
    /// with no prompt ("/"); a path that names nothing here is NoSuchObject. Lock locks the keychain (Locked follows); a keychain without a
    /// password unlocks again with no prompt. A collection cannot be created with an alias
    /// that cannot be a path element, and the default collection cannot be deleted.
    @Test func unlockAnswersUnlockedAndTheDefaultCollectionCannotBeDeleted() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let unlock = try bus.call(Self.service, Self.serviceInterface, "Unlock", "ao", "1", Self.login)
            #expect(unlock.output == "aoo 1 \"\(Self.login)\" \"/\"\n", "\(unlock.errors)")
            let notOurs = try bus.call(Self.service, Self.serviceInterface, "Unlock", "ao", "2", Self.login, "/not/ours")
            #expect(notOurs.status != 0 && notOurs.errors.contains("no such object: /not/ours"), "\(notOurs.errors)")
            let lock = try bus.call(Self.service, Self.serviceInterface, "Lock", "ao", "1", Self.login)
            #expect(lock.output == "aoo 1 \"\(Self.login)\" \"/\"\n", "\(lock.errors)")
            let locked = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", Self.login,
                                                         "org.freedesktop.Secret.Collection", "Locked"])
            #expect(locked.output == "b true\n", "\(locked.errors)")
            let again = try bus.call(Self.service, Self.serviceInterface, "Unlock", "ao", "1", Self.login)
            #expect(again.output == "aoo 1 \"\(Self.login)\" \"/\"\n", "\(again.errors)")
            let create = try bus.call(Self.service, Self.serviceInterface, "CreateCollection", "a{sv}s", "0", "my work")
            #expect(create.status != 0)
            #expect(create.errors == "Call failed: 'my work' cannot be an alias: an alias is 1 to 255 letters, digits "
                    + "and _, the characters of a D-Bus object path element\n",
                    "\(create.errors)")
            let delete = try bus.run("/usr/bin/dbus-send", [
                "--session", "--print-reply", "--dest=org.freedesktop.secrets", Self.login,
                "org.freedesktop.Secret.Collection.Delete"])
            #expect(delete.errors.contains("org.freedesktop.DBus.Error.NotSupported"), "\(delete.errors)")
            #expect(bus.providerIsRunning)
        }
    }

    /// A locked keychain where the provider cannot prompt (neither pinentry nor
    /// systemd-ask-password on its PATH): clients get IsLocked with the command that unlocks
    /// it; once unlocked with keychainctl, the same lookup succeeds.
    @Test func aLockedKeychainIsReportedWithHowToUnlockIt() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let emptyPath = TestScratch.folder("empty-path")
        try FileManager.default.createDirectory(at: emptyPath, withIntermediateDirectories: true)
        try bus.startProvider(environment: ["PATH": emptyPath.path])
        #expect(try bus.keychainctl("create-keychain", "-p", "keychain password", "login").status == 0)
        #expect(try bus.keychainctl("add-generic-password", "-s", "locked.example", "-a", "me", "-w", "pw").status == 0)
        #expect(try bus.keychainctl("lock-keychain", "login").status == 0)
        let locked = try bus.secretTool("lookup", "service", "locked.example", "account", "me")
        #expect(locked.status != 0)
        #expect(locked.output == "")
        #expect(locked.errors.contains("the keychain login is locked: unlock it with keychainctl unlock-keychain login"),
                "\(locked.errors)")
        #expect(try bus.keychainctl("unlock-keychain", "-p", "keychain password", "login").status == 0)
        #expect(try bus.secretTool("lookup", "service", "locked.example", "account", "me").output == "pw")
    }

    /// dbus-send's answer to `method` on `path` (its error's name when it fails).
    private func send(_ bus: PrivateSessionBus, _ path: String, _ method: String, _ arguments: String...) throws -> String {
        let sent = try bus.run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.secrets", path,
                                                      method] + arguments)
        return sent.status == 0 ? sent.output : sent.errors
    }

    /// A collection or item that is not there is NoSuchObject (the API's error for it) by
    /// whichever path names it, and in Lock and Unlock; the session collection is never
    /// locked, so Lock leaves it out.
    @Test func missingObjectsAreNoSuchObjectByEveryPath() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let noSuchObject = "Error org.freedesktop.Secret.Error.NoSuchObject"
            let get = "org.freedesktop.DBus.Properties.Get"
            for path in ["/org/freedesktop/secrets/collection/nothere", "/org/freedesktop/secrets/aliases/nothere"] {
                let label = try send(bus, path, get, "string:org.freedesktop.Secret.Collection", "string:Label")
                #expect(label.hasPrefix(noSuchObject), "\(path): \(label)")
                for method in ["Lock", "Unlock"] {
                    let answer = try send(bus, Self.service, Self.serviceInterface + "." + method, "array:objpath:" + path)
                    #expect(answer.hasPrefix(noSuchObject), "\(method) \(path): \(answer)")
                }
            }
            let item = "/org/freedesktop/secrets/collection/session/67656e70000102030405060708090a0b0c0d0e0f"
            #expect(try send(bus, item, get, "string:org.freedesktop.Secret.Item", "string:Label").hasPrefix(noSuchObject))
            #expect(try send(bus, Self.service, Self.serviceInterface + ".Lock", "array:objpath:" + item).hasPrefix(noSuchObject))
            let session = try bus.call(Self.service, Self.serviceInterface, "Lock", "ao", "1",
                                       "/org/freedesktop/secrets/collection/session")
            #expect(session.output == "aoo 0 \"/\"\n", "\(session.errors)")
        }
    }

    /// Introspection lists the collections and their items as child nodes, as GNOME Keyring
    /// does, so that `busctl tree` shows them: also the items of a locked keychain. It creates
    /// nothing: before its first use the login keychain is listed without items and stays
    /// uncreated.
    @Test func busctlTreeShowsTheCollectionsAndTheirItems() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let empty = try bus.run("/usr/bin/busctl", ["--user", "tree", "--list", "org.freedesktop.secrets"])
            #expect(empty.output.split(separator: "\n").contains(Substring(Self.login)), "\(empty.output)\(empty.errors)")
            #expect(!FileManager.default.fileExists(
                atPath: bus.dataHome.appendingPathComponent("keychains/login.keychain-db").path))
            #expect(try bus.secretTool("store", "--label=kept", "service", "tree.example", input: "k").status == 0)
            #expect(try bus.secretTool("store", "--collection=session", "--label=s", "service", "tree.example",
                                       input: "s").status == 0)
            #expect(try bus.keychainctl("lock-keychain", "login").status == 0)
            let tree = try bus.run("/usr/bin/busctl", ["--user", "tree", "--list", "org.freedesktop.secrets"])
            #expect(tree.status == 0, "\(tree.errors)")
            let paths = tree.output.split(separator: "\n").map(String.init)
            #expect(paths.contains(Self.login) && paths.contains("/org/freedesktop/secrets/collection/session"), "\(paths)")
            #expect(paths.count(where: { $0.hasPrefix(Self.login + "/") }) == 1, "\(paths)")
            #expect(paths.count(where: { $0.hasPrefix("/org/freedesktop/secrets/collection/session/") }) == 1, "\(paths)")
        }
    }
}
