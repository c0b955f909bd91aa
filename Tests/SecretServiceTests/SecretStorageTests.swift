import Foundation
import Testing
import TestSupport

/// Python's secretstorage (Debian's python3-secretstorage, over jeepney), a second real
/// client: it opens its session by asking for dh-ietf1024 first and falls back to plain,
/// reaches the collection through the alias path, and uses the Item interface's methods and
/// properties directly.
@Suite struct SecretStorageTests {
    /// Runs `script` with Debian's python3 on `bus`; the script's standard output.
    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        let prelude = """
            import secretstorage, sys
            connection = secretstorage.dbus_init()
            collection = secretstorage.get_default_collection(connection)

            """
        return try bus.run("/usr/bin/python3", ["-c", prelude + script])
    }

    /// Item interface: GetSecret, SetSecret, Label and Attributes (read and written),
    /// Created/Modified, Delete; the path stays the same through every change. The secrets
    /// travel in a dh-ietf1024-sha256-aes128-cbc-pkcs7 session, which secretstorage decrypts
    /// with its own Diffie-Hellman and AES code.
    @Test func itemPropertiesAndMethodsWorkThroughTheAlias() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try python(bus, """
                item = collection.create_item('Wiki', {'service': 'wiki.example', 'account': 'eve', 'xdg:schema': 'org.example.Wiki'}, b'one', replace=True)
                path = item.item_path
                print(collection.session.encrypted)
                print(item.get_label(), sorted(item.get_attributes().items()), item.get_secret(), item.is_locked())
                item.set_secret(b'two')
                item.set_label('Wiki (work)')
                item.set_attributes({'service': 'wiki.example', 'account': 'eve', 'team': 'docs'})
                [found] = list(collection.search_items({'team': 'docs'}))
                print(found.item_path == path, found.get_label(), found.get_secret(), found.get_created() > 1700000000)
                print(list(collection.search_items({'xdg:schema': 'org.example.Wiki'})))
                found.delete()
                print(list(collection.search_items({'service': 'wiki.example'})))
                """)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == """
                True
                Wiki [('account', 'eve'), ('service', 'wiki.example'), ('xdg:schema', 'org.example.Wiki')] b'one' False
                True Wiki (work) b'two' True
                []
                []

                """)
            // The delete removed the keychain item itself.
            #expect(try bus.keychainctl("find-generic-password", "-s", "wiki.example").status != 0)
        }
    }

    /// Bounds: a secret of more than 1 MiB is refused with InvalidArgs and nothing is stored;
    /// one of exactly 1 MiB is stored and read back whole.
    @Test func aSecretOverOneMebibyteIsRefused() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try python(bus, """
                from jeepney.wrappers import DBusErrorResponse
                try:
                    collection.create_item('big', {'service': 'big'}, b'x' * (1024 * 1024 + 1), replace=True)
                    print('stored')
                except DBusErrorResponse as error:
                    print(error.name, error.data[0])
                print(len(list(collection.search_items({'service': 'big'}))))
                item = collection.create_item('big', {'service': 'big'}, b'y' * (1024 * 1024), replace=True)
                print(item.get_secret() == b'y' * (1024 * 1024))
                """)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == """
                org.freedesktop.DBus.Error.InvalidArgs the secret is 1048577 bytes, more than 1048576
                0
                True

                """)
        }
    }

    /// Bounds: more attributes than the provider keeps are refused, not truncated.
    @Test func tooManyAttributesAreRefused() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try python(bus, """
                from jeepney.wrappers import DBusErrorResponse
                try:
                    collection.create_item('many', {f'name{i}': 'v' for i in range(65)}, b'pw', replace=True)
                    print('stored')
                except DBusErrorResponse as error:
                    print(error.name, error.data[0])
                print(len(list(collection.get_all_items())))
                """)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == "org.freedesktop.DBus.Error.InvalidArgs more than 64 attributes\n0\n")
        }
    }
}

/// Sessions are the client's: when it leaves the bus, the provider closes them, so that
/// clients that never call Session.Close (most do not) leave nothing behind.
@Suite struct SessionLifetimeTests {
    @Test func aClientsSessionsCloseWhenItLeavesTheBus() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            // Two connections of jeepney: the first opens a session and closes; the second
            // waits for the bus's NameOwnerChanged about it, which the bus sent the provider
            // first, so the provider has handled it before the second's next call.
            let outcome = try bus.run("/usr/bin/python3", ["-c", """
                from jeepney import DBusAddress, new_method_call, MatchRule, message_bus
                from jeepney.io.blocking import open_dbus_connection
                service = DBusAddress('/org/freedesktop/secrets', bus_name='org.freedesktop.secrets',
                                      interface='org.freedesktop.Secret.Service')
                def introspect(connection, path):
                    address = DBusAddress(path, bus_name='org.freedesktop.secrets',
                                          interface='org.freedesktop.DBus.Introspectable')
                    reply = connection.send_and_get_reply(new_method_call(address, 'Introspect'))
                    return 'org.freedesktop.Secret.Session' in str(reply.body[0])
                watcher = open_dbus_connection(bus='SESSION')
                client = open_dbus_connection(bus='SESSION')
                rule = MatchRule(type='signal', interface='org.freedesktop.DBus', member='NameOwnerChanged')
                rule.add_arg_condition(0, client.unique_name)
                watcher.send_and_get_reply(message_bus.AddMatch(rule))
                output, path = client.send_and_get_reply(new_method_call(service, 'OpenSession', 'sv', ('plain', ('s', '')))).body
                print(introspect(client, path), introspect(watcher, path))
                client.close()
                with watcher.filter(rule) as signals:
                    watcher.recv_until_filtered(signals, timeout=60)
                print(introspect(watcher, path))
                """])
            #expect(outcome.status == 0, "\(outcome.errors)")
            // Open while its client is there, for every client to see; gone once it left.
            #expect(outcome.output == "True True\nFalse\n")
        }
    }
}
