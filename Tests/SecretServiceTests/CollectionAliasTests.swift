import Foundation
import Testing
import TestSupport

/// Aliases other than `default`, `login` and `session`, as the Secret Service API allows
/// them: SetAlias makes any name of letters, digits and `_` name a collection ("/" removes
/// it), ReadAlias answers it, `/org/freedesktop/secrets/aliases/<name>` works as the
/// collection does for real clients (secret-tool, secretstorage), and the alias outlives the
/// provider. keychainctl, which reads the keychain files on its own, says where items went.
@Suite struct CollectionAliasTests {
    static let service = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let collectionPrefix = "/org/freedesktop/secrets/collection/"
    static let aliasPrefix = "/org/freedesktop/secrets/aliases/"

    private func readAlias(_ bus: PrivateSessionBus, _ name: String) throws -> String {
        let read = try bus.call(Self.service, Self.serviceInterface, "ReadAlias", "s", name)
        return read.status == 0 ? read.output : read.errors
    }

    /// dbus-send's SetAlias: empty on success, else the error's name and message.
    private func setAlias(_ bus: PrivateSessionBus, _ name: String, _ path: String) throws -> String {
        let sent = try bus.run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.secrets",
                                                      Self.service, Self.serviceInterface + ".SetAlias",
                                                      "string:" + name, "objpath:" + path])
        return sent.status == 0 ? "" : sent.errors
    }

    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        try bus.run("/usr/bin/python3", ["-c", "import secretstorage\nconnection = secretstorage.dbus_init()\n" + script])
    }

    /// An alias set to a keychain's collection reads back, takes stores by its path (into that
    /// keychain, for keychainctl), lists and reads that collection's items through
    /// secretstorage, keeps naming it after the provider restarts, and "/" removes it: then
    /// ReadAlias answers "/" and its path names nothing.
    @Test func anAliasNamesItsCollectionAndOutlivesTheProvider() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.keychainctl("create-keychain", "-p", "x", "work").status == 0)
            let work = Self.collectionPrefix + "work"
            let alias = Self.aliasPrefix + "work_notes"
            #expect(try readAlias(bus, "work_notes") == "o \"/\"\n")
            #expect(try setAlias(bus, "work_notes", work) == "")
            #expect(try readAlias(bus, "work_notes") == "o \"\(work)\"\n")

            let store = try bus.secretTool("store", "--label=Wiki", "--collection=\(alias)", "service", "wiki.example",
                                           "account", "eve", input: "through the alias")
            #expect(store.status == 0, "\(store.errors)")
            #expect(try bus.keychainctl("find-generic-password", "-s", "wiki.example", "-w", "work").output
                    == "through the alias\n")
            #expect(try bus.keychainctl("find-generic-password", "-s", "wiki.example", "login").status != 0)
            // libsecret takes a bare alias name for the collection, as its callers pass "default".
            let byName = try bus.secretTool("store", "--label=Mail", "--collection=work_notes", "service", "mail.example",
                                            input: "by alias name")
            #expect(byName.status == 0, "\(byName.errors)")
            #expect(try bus.keychainctl("find-generic-password", "-s", "mail.example", "-w", "work").output
                    == "by alias name\n")
            let listed = try python(bus, """
                collection = secretstorage.Collection(connection, '\(alias)')
                print(collection.get_label(), sorted((item.get_label(), item.get_secret()) for item in collection.get_all_items()))
                """)
            #expect(listed.output == "Work [('Mail', b'by alias name'), ('Wiki', b'through the alias')]\n", "\(listed.errors)")

            try bus.restartProvider()
            #expect(try readAlias(bus, "work_notes") == "o \"\(work)\"\n")
            let label = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", alias,
                                                        "org.freedesktop.Secret.Collection", "Label"])
            #expect(label.output == "s \"Work\"\n", "\(label.errors)")

            #expect(try setAlias(bus, "work_notes", "/") == "")
            #expect(try readAlias(bus, "work_notes") == "o \"/\"\n")
            let gone = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", alias,
                                                       "org.freedesktop.Secret.Collection", "Label"])
            #expect(gone.errors.contains("no such object"), "\(gone.errors)")
            // Removing what is not there is not an error.
            #expect(try setAlias(bus, "work_notes", "/") == "")
        }
    }

    /// An alias name must be a path element (letters, digits, `_`): others are InvalidArgs
    /// and nothing is kept. A path of no collection is InvalidArgs, a collection that is not
    /// there NoSuchObject, as GNOME Keyring answers both. An alias may name the collection of
    /// another alias (the one named then), or the session collection. When its keychain is
    /// deleted it names nothing.
    @Test func badNamesAndMissingCollectionsAreRefused() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let login = Self.collectionPrefix + "login"
            let invalid = "Error org.freedesktop.DBus.Error.InvalidArgs"
            for name in ["bad-name", "a b", "a/b", "", String(repeating: "a", count: 256), "caf\u{E9}"] {
                let answer = try setAlias(bus, name, login)
                #expect(answer.hasPrefix(invalid) && answer.contains("cannot be an alias"), "\(name): \(answer)")
                #expect(try readAlias(bus, name) == "o \"/\"\n", "\(name)")
            }
            #expect(try setAlias(bus, String(repeating: "a", count: 255), login) == "")
            let missing = try setAlias(bus, "work", Self.collectionPrefix + "nothere")
            #expect(missing.hasPrefix("Error org.freedesktop.Secret.Error.NoSuchObject"), "\(missing)")
            let unset = try setAlias(bus, "work", Self.aliasPrefix + "unset")
            #expect(unset.hasPrefix("Error org.freedesktop.Secret.Error.NoSuchObject"), "\(unset)")
            let notCollection = try setAlias(bus, "work", "/not/a/collection")
            #expect(notCollection.hasPrefix(invalid), "\(notCollection)")
            #expect(try readAlias(bus, "work") == "o \"/\"\n")

            #expect(try bus.keychainctl("create-keychain", "-p", "x", "old").status == 0)
            #expect(try setAlias(bus, "first", Self.collectionPrefix + "old") == "")
            #expect(try setAlias(bus, "second", Self.aliasPrefix + "first") == "")
            #expect(try readAlias(bus, "second") == "o \"\(Self.collectionPrefix)old\"\n")
            #expect(try setAlias(bus, "scratch", Self.collectionPrefix + "session") == "")
            #expect(try readAlias(bus, "scratch") == "o \"\(Self.collectionPrefix)session\"\n")
            #expect(try bus.keychainctl("delete-keychain", "old").status == 0)
            #expect(try readAlias(bus, "first") == "o \"/\"\n")
            let deleted = try bus.call(Self.aliasPrefix + "first", "org.freedesktop.Secret.Collection", "SearchItems",
                                       "a{ss}", "0")
            #expect(deleted.errors.contains("no such object"), "\(deleted.errors)")
        }
    }

    /// Removing the alias `default` ("/") makes the login keychain the default again, for
    /// keychainctl too, so that ReadAlias still finds a collection, as GNOME Keyring answers.
    @Test func removingTheDefaultAliasMakesLoginTheDefaultAgain() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.keychainctl("create-keychain", "-p", "x", "work").status == 0)
            #expect(try setAlias(bus, "default", Self.collectionPrefix + "work") == "")
            #expect(try bus.keychainctl("default-keychain").output.contains("work.keychain-db"))
            #expect(try setAlias(bus, "default", "/") == "")
            #expect(try readAlias(bus, "default") == "o \"\(Self.collectionPrefix)login\"\n")
            #expect(try bus.keychainctl("default-keychain").output.contains("login.keychain-db"))
        }
    }

    /// CreateCollection with an alias that names nothing yet makes the collection (its
    /// password asked twice) and sets the alias to it; a second CreateCollection with that
    /// alias gives the same collection with no prompt.
    @Test func createCollectionSetsANewAlias() throws {
        let pinentry = try UnlockPromptTests.FakePrompter(answers: ["pw", "pw"])
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        try bus.startProvider(environment: pinentry.providerEnvironment)
        let created = try python(bus, """
            from secretstorage.collection import create_collection
            print(create_collection(connection, 'Team', alias='team').collection_path)
            print(create_collection(connection, 'Other', alias='team').collection_path)
            """)
        #expect(created.output == "\(Self.collectionPrefix)Team\n\(Self.collectionPrefix)Team\n", "\(created.errors)")
        #expect(try readAlias(bus, "team") == "o \"\(Self.collectionPrefix)Team\"\n")
        #expect(pinentry.commands.filter { $0 == "GETPIN" }.count == 2)
        #expect(try bus.keychainctl("unlock-keychain", "-p", "pw", "Team").status == 0)
    }
}
