import Foundation
import Testing
import TestSupport

/// Bounds on GetSecrets' reply, found by the fuzzer: a client that names the same large
/// items many times must not make the provider build a reply of gigabytes (which the bus
/// refuses, cutting the provider off).
@Suite struct GetSecretsBoundsTests {
    /// Runs `script` with Debian's python3 (jeepney) on `bus`, after a prelude that opens a
    /// plain session and defines `store(name, secret)` (an item's path) and
    /// `get_secrets(paths)` (the reply's paths, or the error's name and message).
    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        let prelude = """
            from jeepney import DBusAddress, new_method_call, MessageType, HeaderFields
            from jeepney.io.blocking import open_dbus_connection
            connection = open_dbus_connection(bus='SESSION')
            def call(path, interface, member, signature, body):
                address = DBusAddress(path, bus_name='org.freedesktop.secrets', interface=interface)
                message = new_method_call(address, member, signature, body)
                message.header.flags |= 2  # no auto-start: never another provider in its place
                return connection.send_and_get_reply(message, timeout=120)
            service = '/org/freedesktop/secrets'
            _, session = call(service, 'org.freedesktop.Secret.Service', 'OpenSession', 'sv', ('plain', ('s', ''))).body
            def store(name, secret):
                properties = {'org.freedesktop.Secret.Item.Attributes': ('a{ss}', {'service': name, 'account': 'a'})}
                return call('/org/freedesktop/secrets/collection/login', 'org.freedesktop.Secret.Collection',
                            'CreateItem', 'a{sv}(oayays)b', (properties, (session, b'', secret, 'text/plain'), True)).body[0]
            def get_secrets(paths):
                reply = call(service, 'org.freedesktop.Secret.Service', 'GetSecrets', 'aoo', (paths, session))
                if reply.header.message_type == MessageType.error:
                    return reply.header.fields[HeaderFields.error_name], reply.body[0]
                return sorted(reply.body[0])

            """
        return try bus.run("/usr/bin/python3", ["-c", prelude + script])
    }

    /// An item named 4,096 times is answered once, with its whole secret.
    @Test func anItemNamedManyTimesIsAnsweredOnce() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try python(bus, """
                path = store('big', b'x' * (1 << 20))
                reply = get_secrets([path] * 4096)
                print(len(reply), reply[0] == path)
                """)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == "1 True\n")
            #expect(bus.providerIsRunning)
        }
    }

    /// Secrets adding up to more than 32 MiB in one reply are refused with InvalidArgs and a
    /// message saying what to do; 32 of 1 MiB are answered, and the provider keeps serving.
    /// (D-Bus carries no array over 64 MiB: a reply past it got the provider cut off the bus.)
    @Test func secretsOverThirtyTwoMebibytesInOneReplyAreRefused() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try python(bus, """
                paths = [store(f'big-{i}', bytes([i]) * (1 << 20)) for i in range(33)]
                print(len(get_secrets(paths[:32])))
                print(*get_secrets(paths))
                print(len(get_secrets(paths[1:])))
                """)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == """
                32
                org.freedesktop.DBus.Error.InvalidArgs the secrets asked for add up to more than 33554432 bytes; ask for fewer at once
                32

                """)
            #expect(bus.providerIsRunning)
        }
    }
}
