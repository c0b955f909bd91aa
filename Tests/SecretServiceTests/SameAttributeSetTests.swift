import Foundation
import Testing
import TestSupport

/// Secret Service API: CreateItem without `replace` always adds an item, even when one with
/// the same attributes exists (secretstorage's own tests, and clients that keep several
/// secrets under one attribute set, rely on it). The keychain keeps one generic password per
/// service and account; a further item of a set without its own `service` or `account` gets
/// stand-ins of its own, so both are kept.
@Suite struct SameAttributeSetTests {
    @Test func createItemWithoutReplaceAddsASecondItemOfTheSameSet() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try bus.runClient("/usr/bin/python3", ["-c", """
                import secretstorage
                connection = secretstorage.dbus_init()
                collection = secretstorage.get_default_collection(connection)
                same = {'application': 'mail-client', 'kind': 'token'}
                first = collection.create_item('First', same, b'one')
                second = collection.create_item('Second', same, b'two')
                print(first.item_path != second.item_path)
                found = sorted(item.get_secret() for item in collection.search_items(same))
                print(found)
                # Moved away from the set and back: still two items, each with its secret.
                second.set_attributes({'application': 'mail-client', 'kind': 'other'})
                second.set_attributes(same)
                print(sorted((item.get_label(), item.get_secret()) for item in collection.search_items(same)))
                first.delete()
                print([(item.get_label(), item.get_secret()) for item in collection.search_items(same)])
                # replace=True changes the one left rather than adding.
                collection.create_item('Third', same, b'three', replace=True)
                print([(item.get_label(), item.get_secret()) for item in collection.search_items(same)])
                """])
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == """
                True
                [b'one', b'two']
                [('First', b'one'), ('Second', b'two')]
                [('Second', b'two')]
                [('Third', b'three')]

                """)
        }
    }

    /// A set with its own `service` and `account` names the keychain item: a second item of
    /// that set is still refused clearly (the keychain cannot hold both), and the first kept.
    @Test func aSecondItemWithTheSameServiceAndAccountIsStillRefused() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try bus.runClient("/usr/bin/python3", ["-c", """
                import secretstorage
                from jeepney.wrappers import DBusErrorResponse
                connection = secretstorage.dbus_init()
                collection = secretstorage.get_default_collection(connection)
                same = {'service': 'S', 'account': 'A'}
                collection.create_item('First', same, b'one')
                try:
                    collection.create_item('Second', same, b'two')
                except DBusErrorResponse as error:
                    print(error.name, error.data[0])
                print([item.get_secret() for item in collection.search_items(same)])
                """])
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == """
                org.freedesktop.DBus.Error.Failed the keychain already holds an item of the same service and account \
                (service 'S', account 'A'); it keeps one item per service and account
                [b'one']

                """)
        }
    }
}
