import Foundation
import Testing
import TestSupport

/// Signals (Secret Service API 0.2): Collection ItemCreated/ItemChanged/ItemDeleted, Service
/// CollectionChanged, and org.freedesktop.DBus.Properties.PropertiesChanged for the
/// collection's Items, Label and Locked and an item's Label, Attributes and Modified, so that a
/// client showing them (Seahorse, a keyring browser) stays current. PropertiesChanged carries
/// the new values, as GNOME Keyring sends them: libsecret takes them from the signal. Heard by
/// a jeepney listener on the bus, in the order sent.
@Suite struct SignalTests {
    @Test func everyChangeIsSignalledInOrder() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try bus.run("/usr/bin/python3", ["-c", """
                import collections, secretstorage
                from jeepney import MatchRule, HeaderFields
                from jeepney.bus_messages import message_bus
                connection = secretstorage.dbus_init()
                rule = MatchRule(type='signal', path_namespace='/org/freedesktop/secrets')
                connection.send_and_get_reply(message_bus.AddMatch(rule))
                heard = collections.deque(maxlen=1000)
                with connection.filter(rule, queue=heard):
                    collection = secretstorage.get_default_collection(connection)
                    item = collection.create_item('L', {'service': 'sig.example', 'account': 'a'}, b'one')
                    item.set_label('L2')
                    item.set_attributes({'service': 'sig.example', 'account': 'a', 'kind': 'k'})
                    item.set_secret(b'two')
                    item.delete()
                    collection.set_label('Renamed')
                    collection.lock()
                    # A round trip after the last change: the signals sent before its reply are in.
                    collection.get_label()
                names = {item.item_path: 'ITEM', '/org/freedesktop/secrets/collection/login': 'COLLECTION',
                         '/org/freedesktop/secrets': 'SERVICE'}
                def shown(signature, value):
                    if signature == 'ao': return len(value)
                    if signature == 't': return 'time'
                    if signature == 'a{ss}': return sorted(value.items())
                    return value
                for message in heard:
                    fields = message.header.fields
                    body = [names.get(value, value) if isinstance(value, str) else value for value in message.body]
                    if fields[HeaderFields.member] == 'PropertiesChanged':
                        body[1] = {name: shown(*value) for name, value in body[1].items()}
                    print(names[fields[HeaderFields.path]], fields[HeaderFields.member], *body)
                """])
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == """
                COLLECTION ItemCreated ITEM
                COLLECTION PropertiesChanged org.freedesktop.Secret.Collection {'Items': 1} []
                COLLECTION ItemChanged ITEM
                ITEM PropertiesChanged org.freedesktop.Secret.Item {'Label': 'L2', 'Modified': 'time'} []
                COLLECTION ItemChanged ITEM
                ITEM PropertiesChanged org.freedesktop.Secret.Item {'Attributes': [('account', 'a'), ('kind', 'k'), \
                ('service', 'sig.example')], 'Modified': 'time'} []
                COLLECTION ItemChanged ITEM
                ITEM PropertiesChanged org.freedesktop.Secret.Item {'Modified': 'time'} []
                COLLECTION ItemDeleted ITEM
                COLLECTION PropertiesChanged org.freedesktop.Secret.Collection {'Items': 0} []
                SERVICE CollectionChanged COLLECTION
                COLLECTION PropertiesChanged org.freedesktop.Secret.Collection {'Label': 'Renamed'} []
                SERVICE CollectionChanged COLLECTION
                COLLECTION PropertiesChanged org.freedesktop.Secret.Collection {'Locked': True} []

                """)
        }
    }

    /// Tests/SecretServiceClients/libsecret-lock.c, built once for the test process.
    static let lockClient = CProgram.build(
        "libsecret-lock", sources: [clientSources.appendingPathComponent("libsecret-lock.c")], packages: ["libsecret-1"])

    /// libsecret keeps a collection's and its items' Locked from PropertiesChanged: after Lock
    /// they read locked, after Unlock unlocked, and a password stored after the unlock is
    /// stored, with no libsecret assertion failing (criticals are fatal in the client). The
    /// session collection never locks: Lock leaves it out and it stays unlocked.
    @Test func libsecretFollowsLockAndUnlockFromTheSignals() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let stored = try bus.secretTool("store", "--label=one", "service", "lock.example", "account", "ann", input: "one")
            #expect(stored.status == 0, "\(stored.errors)")
            let client = try Self.lockClient.get().path
            let run = try bus.runClient(client, ["default"], environment: ["G_DEBUG": "fatal-criticals"])
            #expect(run.status == 0, "\(run.output)\(run.errors)")
            let lines = run.output.split(separator: "\n").map(String.init)
            #expect(Array(lines.prefix(3)) == ["locked 0 0", "locked 1 1", "locked 0 0"], "\(run.output)")
            #expect(lines.count == 4 && lines.last?.hasPrefix("locked 0") == true, "\(run.output)")
            #expect(try bus.secretTool("lookup", "server", "lock.example", "user", "ann").output == "stored after unlock")
            let session = try bus.runClient(client, ["session"], environment: ["G_DEBUG": "fatal-criticals"])
            #expect(session.status == 0, "\(session.output)\(session.errors)")
            #expect(session.output.split(separator: "\n").prefix(3) == ["locked 0", "locked 0", "locked 0"], "\(session.output)")
        }
    }
}
