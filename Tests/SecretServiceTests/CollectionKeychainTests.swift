import Foundation
import Testing
import TestSupport

/// Collections are keychains (Secret Service API 0.2, "Collections" and "Aliases"): every
/// keychain of the user's folder is a collection at
/// `/org/freedesktop/secrets/collection/<name>`, the alias `default` is the default keychain
/// (SetAlias makes another the default, for keychainctl too), CreateCollection makes a
/// keychain whose password a prompt asks for twice, and Delete deletes a keychain other than
/// the default. Checked with real clients (secretstorage, secret-tool) against keychainctl,
/// which reads the same keychain files independently.
@Suite struct CollectionKeychainTests {
    static let service = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let collectionPrefix = "/org/freedesktop/secrets/collection/"
    static let password = "new pass 1"

    /// A private bus whose provider has only `prompter`'s folder on its PATH.
    private func withPrompter(_ prompter: UnlockPromptTests.FakePrompter,
                              _ body: (PrivateSessionBus) throws -> Void) throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        try bus.startProvider(environment: prompter.providerEnvironment)
        try body(bus)
    }

    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        let prelude = """
            import secretstorage, sys
            from secretstorage.collection import create_collection, get_all_collections, search_items
            connection = secretstorage.dbus_init()

            """
        return try bus.run("/usr/bin/python3", ["-c", prelude + script])
    }

    private func collections(_ bus: PrivateSessionBus) throws -> String {
        try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", Self.service,
                                        Self.serviceInterface, "Collections"]).output
    }

    /// Every keychain keychainctl lists is a collection, the default first; a name with
    /// characters D-Bus paths do not allow is spelled `_` and hex (a space is `_20`, `_` is
    /// `_5f`). Each collection's items are its keychain's: an item stored in one is found by
    /// keychainctl in that keychain alone, and Service.SearchItems searches them all.
    @Test func everyKeychainIsACollectionHoldingItsOwnItems() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.keychainctl("create-keychain", "-p", "x", "my work_2").status == 0)
            #expect(try collections(bus) == """
                ao 3 "\(Self.collectionPrefix)login" "\(Self.collectionPrefix)my_20work_5f2" "\(Self.collectionPrefix)session"

                """)
            let store = try bus.secretTool("store", "--label=Wiki", "--collection=\(Self.collectionPrefix)my_20work_5f2",
                                           "service", "wiki.example", "account", "eve", input: "in work")
            #expect(store.status == 0, "\(store.errors)")
            #expect(try bus.secretTool("store", "--label=Wiki", "service", "wiki.example", "account", "eve",
                                       input: "in login").status == 0)
            #expect(try bus.keychainctl("find-generic-password", "-s", "wiki.example", "-w", "my work_2").output
                    == "in work\n")
            #expect(try bus.keychainctl("find-generic-password", "-s", "wiki.example", "-w", "login").output
                    == "in login\n")
            let search = try python(bus, """
                found = sorted((item.item_path.rsplit('/', 1)[0], item.get_secret()) for item in search_items(connection, {'service': 'wiki.example'}))
                print(found)
                print(sorted(c.get_label() for c in get_all_collections(connection)))
                """)
            #expect(search.output == """
                [('\(Self.collectionPrefix)login', b'in login'), ('\(Self.collectionPrefix)my_20work_5f2', b'in work')]
                ['Login', 'My work_2', 'Session']

                """, "\(search.errors)")
        }
    }

    /// A well-formed path of a keychain that is not there is NoSuchObject, for the collection
    /// and for items under it, and a call there never creates that keychain; a spelling of a
    /// name other than its one encoding (a needless escape, uppercase hex, a stray `_`) names
    /// no collection either (NoSuchObject too, not the keychain it might spell), so that each
    /// keychain has one path.
    @Test func aMissingKeychainIsNoSuchObjectAndIsNeverCreated() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let missing = Self.collectionPrefix + "nothere"
            let label = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", missing,
                                                        "org.freedesktop.Secret.Collection", "Label"])
            #expect(label.errors.contains("no such object"), "\(label.errors)")
            let item = missing + "/67656e70" + String(repeating: "0", count: 32)
            let delete = try bus.call(item, "org.freedesktop.Secret.Item", "Delete")
            #expect(delete.errors.contains("no such object"), "\(delete.errors)")
            let search = try bus.call(missing, "org.freedesktop.Secret.Collection", "SearchItems", "a{ss}", "0")
            #expect(search.errors.contains("no such object"), "\(search.errors)")
            #expect(!(try bus.keychainctl("list-keychains").output.contains("nothere")))
            for spelling in ["l_6fgin", "login_", "a_5Fb", "_"] {
                let call = try bus.call(Self.collectionPrefix + spelling, "org.freedesktop.Secret.Collection", "SearchItems",
                                        "a{ss}", "0")
                #expect(call.errors == "Call failed: no such object: \(Self.collectionPrefix)\(spelling)\n",
                        "\(spelling): \(call.errors)")
            }
            #expect(bus.providerIsRunning)
        }
    }

    /// A locked keychain does not stop a search of the others (a search by an attribute other
    /// than service and account): secret-tool finds the login item; and a search the locked
    /// keychain's index of attribute pairs shows to match nothing there finds nothing, with
    /// no prompt and no IsLocked.
    @Test func aLockedKeychainDoesNotHideTheOthersFromASearch() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.keychainctl("create-keychain", "-p", "x", "side").status == 0)
            #expect(try bus.keychainctl("add-generic-password", "-s", "side.example", "-a", "me", "-w", "s", "side").status == 0)
            #expect(try bus.keychainctl("lock-keychain", "side").status == 0)
            #expect(try bus.secretTool("store", "--label=K", "service", "kind.example", "kind", "k", input: "v").status == 0)
            let found = try bus.secretTool("lookup", "kind", "k")
            #expect(found.output == "v", "\(found.errors)")
            let none = try bus.secretTool("lookup", "kind", "other")
            #expect(none.status != 0 && none.output.isEmpty)
            #expect(!none.errors.contains("locked"), "\(none.errors)")
            #expect(try bus.keychainctl("find-generic-password", "-s", "side.example", "-w", "side").status != 0)
        }
    }

    /// CreateCollection returns a prompt that asks for the new keychain's password twice
    /// (answers that differ are asked again); Completed carries the new collection's path,
    /// CollectionCreated is emitted, and the keychain exists for keychainctl with that
    /// password (it unlocks with it and not with another) and the label as its Label. Items
    /// stored in it, locked and unlocked through a prompt, are its own. Its name is the label
    /// with `_` for a space (`Team_Notes`), its path that name spelled for D-Bus.
    @Test func createCollectionAsksThePasswordTwiceAndMakesAKeychain() throws {
        let pinentry = try UnlockPromptTests.FakePrompter(answers: ["one", "other", Self.password, Self.password,
                                                                    Self.password])
        try withPrompter(pinentry) { bus in
            let created = try python(bus, """
                from jeepney import MatchRule, HeaderFields
                from jeepney.bus_messages import message_bus
                rule = MatchRule(type='signal', path='/org/freedesktop/secrets', member='CollectionCreated')
                connection.send_and_get_reply(message_bus.AddMatch(rule))
                with connection.filter(rule) as heard:
                    collection = create_collection(connection, 'Team Notes')
                    signal = connection.recv_until_filtered(heard)
                print(collection.collection_path, signal.body[0] == collection.collection_path)
                print(collection.get_label(), collection.is_locked())
                item = collection.create_item('Note', {'service': 'notes.example', 'account': 'me'}, b'secret note')
                collection.lock()
                print(collection.is_locked(), secretstorage.get_default_collection(connection).is_locked())
                print(collection.unlock(), collection.is_locked(), item.get_secret())
                """)
            #expect(created.status == 0, "\(created.errors)")
            #expect(created.output == """
                \(Self.collectionPrefix)Team_5fNotes True
                Team Notes False
                True False
                False False b'secret note'

                """)
            // Two rounds of two questions, then one unlock.
            #expect(pinentry.commands.filter { $0 == "GETPIN" }.count == 5)
            let list = try bus.keychainctl("list-keychains")
            #expect(list.output.contains("Team Notes.keychain-db") == false && list.output.contains("Team_Notes.keychain-db"),
                    "\(list.output)")
            #expect(try bus.keychainctl("lock-keychain", "Team_Notes").status == 0)
            #expect(try bus.keychainctl("unlock-keychain", "-p", "other", "Team_Notes").status != 0)
            #expect(try bus.keychainctl("unlock-keychain", "-p", Self.password, "Team_Notes").status == 0)
            #expect(try bus.keychainctl("find-generic-password", "-s", "notes.example", "-w", "Team_Notes").output
                    == "secret note\n")
            #expect(try bus.keychainctl("find-generic-password", "-s", "notes.example", "login").status != 0)
            // The password never reaches the provider's log.
            #expect(!(try bus.providerErrors()).contains("pass"))
        }
    }

    /// A cancelled prompt makes nothing: Completed says dismissed and no keychain appears.
    /// CreateCollection with the alias `default` returns the default collection at once, with
    /// no prompt (an alias that names a collection gives it, and nothing is made); an alias
    /// that cannot be a path element is refused before anything is asked.
    @Test func aCancelledCreateMakesNothingAndTheDefaultAliasGivesTheDefault() throws {
        let pinentry = try UnlockPromptTests.FakePrompter(answers: ["CANCEL"])
        try withPrompter(pinentry) { bus in
            let cancelled = try python(bus, """
                from secretstorage.exceptions import PromptDismissedException
                try:
                    create_collection(connection, 'Nope')
                except PromptDismissedException:
                    print('dismissed')
                """)
            #expect(cancelled.output == "dismissed\n", "\(cancelled.errors)")
            #expect(try collections(bus) == "ao 2 \"\(Self.collectionPrefix)login\" \"\(Self.collectionPrefix)session\"\n")
            let alias = try bus.call(Self.service, Self.serviceInterface, "CreateCollection", "a{sv}s", "0", "default")
            #expect(alias.output == "oo \"\(Self.collectionPrefix)login\" \"/\"\n", "\(alias.errors)")
            let other = try bus.call(Self.service, Self.serviceInterface, "CreateCollection", "a{sv}s", "0", "no-dash")
            #expect(other.errors.contains("'no-dash' cannot be an alias"), "\(other.errors)")
            #expect(pinentry.commands.filter { $0 == "GETPIN" }.count == 1)
        }
    }

    /// SetAlias("default", collection) makes that keychain the default for every program:
    /// ReadAlias follows, keychainctl default-keychain shows it, and secret-tool's stores
    /// (which go to the alias) land in it. Setting it back to login works the same way.
    @Test func setAliasDefaultMakesTheKeychainTheDefault() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            // login made by its first use, then another keychain.
            #expect(try bus.keychainctl("add-generic-password", "-s", "first.example", "-a", "me", "-w", "f").status == 0)
            #expect(try bus.keychainctl("create-keychain", "-p", "x", "work").status == 0)
            let work = Self.collectionPrefix + "work"
            #expect(try bus.call(Self.service, Self.serviceInterface, "SetAlias", "so", "default", work).status == 0)
            #expect(try bus.call(Self.service, Self.serviceInterface, "ReadAlias", "s", "default").output == "o \"\(work)\"\n")
            #expect(try bus.keychainctl("default-keychain").output.contains("work.keychain-db"))
            #expect(try collections(bus).hasPrefix("ao 3 \"\(work)\""))
            #expect(try bus.secretTool("store", "--label=Mail", "service", "mail.example", input: "m").status == 0)
            #expect(try bus.keychainctl("find-generic-password", "-s", "mail.example", "-w", "work").output == "m\n")
            #expect(try bus.keychainctl("find-generic-password", "-s", "mail.example", "login").status != 0)
            let missing = try bus.call(Self.service, Self.serviceInterface, "SetAlias", "so", "default",
                                       Self.collectionPrefix + "nothere")
            #expect(missing.status != 0)
            let login = Self.collectionPrefix + "login"
            #expect(try bus.call(Self.service, Self.serviceInterface, "SetAlias", "so", "default", login).status == 0)
            #expect(try bus.keychainctl("default-keychain").output.contains("login.keychain-db"))
        }
    }

    /// Collection.Delete deletes a keychain other than the default at once (its files gone
    /// for keychainctl, CollectionDeleted emitted, its path NoSuchObject after); the default
    /// keychain is refused with a message saying why, and keeps its items.
    @Test func deleteRemovesAnotherKeychainAndRefusesTheDefault() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.keychainctl("create-keychain", "-p", "x", "old").status == 0)
            #expect(try bus.keychainctl("add-generic-password", "-s", "keep.example", "-a", "me", "-w", "k").status == 0)
            let deleted = try python(bus, """
                from jeepney import MatchRule
                from jeepney.bus_messages import message_bus
                from secretstorage.exceptions import ItemNotFoundException
                rule = MatchRule(type='signal', path='/org/freedesktop/secrets', member='CollectionDeleted')
                connection.send_and_get_reply(message_bus.AddMatch(rule))
                old = secretstorage.Collection(connection, '\(Self.collectionPrefix)old')
                with connection.filter(rule) as heard:
                    old.delete()
                    print(connection.recv_until_filtered(heard).body)
                try:
                    old.get_label()
                except ItemNotFoundException:
                    print('gone')
                try:
                    secretstorage.get_default_collection(connection).delete()
                except Exception as error:
                    print(error)
                """)
            #expect(deleted.output.hasPrefix("""
                ('\(Self.collectionPrefix)old',)
                gone

                """), "\(deleted.output) \(deleted.errors)")
            #expect(deleted.output.contains("NotSupported"), "\(deleted.output) \(deleted.errors)")
            #expect(deleted.output.contains("login is the default keychain, which cannot be deleted here"), "\(deleted.output)")
            #expect(!(try bus.keychainctl("list-keychains").output.contains("old.keychain-db")))
            #expect(try bus.keychainctl("find-generic-password", "-s", "keep.example", "-w").output == "k\n")
            #expect(try collections(bus) == "ao 2 \"\(Self.collectionPrefix)login\" \"\(Self.collectionPrefix)session\"\n")
        }
    }

    /// On a headless machine (neither pinentry nor systemd-ask-password on the provider's
    /// PATH) nothing can ask for a new collection's password: CreateCollection fails at once
    /// with NotSupported, saying how to make the keychain instead, rather than returning a
    /// prompt that could only be dismissed. secretstorage gets that error; nothing is made,
    /// and the alias `session` still gives a collection to store in with no password.
    @Test func headlessCreateCollectionSaysHowToMakeTheKeychain() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let emptyPath = TestScratch.folder("empty-path")
        try FileManager.default.createDirectory(at: emptyPath, withIntermediateDirectories: true)
        try bus.startProvider(environment: ["PATH": emptyPath.path])
        let created = try python(bus, """
            from jeepney.wrappers import DBusErrorResponse
            try:
                create_collection(connection, 'Work')
            except DBusErrorResponse as error:
                print(error.name)
                print(error.data[0])
            """)
        #expect(created.output == """
            org.freedesktop.DBus.Error.NotSupported
            neither pinentry nor systemd-ask-password is on the PATH of keychain-secret-service to ask for the new \
            collection's password: create the keychain with keychainctl create-keychain instead

            """, "\(created.errors)")
        #expect(try collections(bus) == "ao 2 \"\(Self.collectionPrefix)login\" \"\(Self.collectionPrefix)session\"\n")
        let session = try python(bus, "print(create_collection(connection, 'Any', alias='session').collection_path)")
        #expect(session.output == "\(Self.collectionPrefix)session\n", "\(session.errors)")
    }
}
