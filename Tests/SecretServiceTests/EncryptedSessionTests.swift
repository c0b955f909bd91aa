import Foundation
import Testing
import TestSupport

/// `dh-ietf1024-sha256-aes128-cbc-pkcs7` against an independent client: jeepney on the bus,
/// Python's own integers for the Diffie-Hellman agreement and the `cryptography` package for
/// HKDF-SHA256 and AES-128-CBC, as libsecret and secretstorage compute them. A secret sealed
/// badly (wrong padding, an IV that is not 16 bytes, a value that is not whole blocks) is
/// InvalidArgs and changes nothing; a public key at or above the prime is refused.
@Suite struct EncryptedSessionTests {
    @Test func aBadlySealedSecretIsInvalidArgsAndChangesNothing() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let outcome = try bus.run("/usr/bin/python3", ["-c", """
                import os
                from jeepney import DBusAddress, new_method_call, MessageType, HeaderFields
                from jeepney.io.blocking import open_dbus_connection
                from cryptography.hazmat.primitives import hashes, padding
                from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
                from cryptography.hazmat.primitives.kdf.hkdf import HKDF
                connection = open_dbus_connection(bus='SESSION')
                def call(path, interface, member, signature, body):
                    address = DBusAddress(path, bus_name='org.freedesktop.secrets', interface=interface)
                    message = new_method_call(address, member, signature, body)
                    message.header.flags |= 2  # no auto-start: never another provider in its place
                    reply = connection.send_and_get_reply(message, timeout=120)
                    if reply.header.message_type == MessageType.error:
                        return ('error', reply.header.fields[HeaderFields.error_name])
                    return reply.body
                service = '/org/freedesktop/secrets'
                prime = int('FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD'
                            'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED'
                            'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF', 16)
                def open_session(public):
                    return call(service, 'org.freedesktop.Secret.Service', 'OpenSession', 'sv',
                                ('dh-ietf1024-sha256-aes128-cbc-pkcs7', ('ay', public)))
                # Public keys above the prime: all ones, and p + 2 (which is 2 modulo p).
                print('above', open_session(b'\\xff' * 128)[1], open_session((prime + 2).to_bytes(128, 'big'))[1])
                private = int.from_bytes(os.urandom(32), 'big')
                output, session = open_session(pow(2, private, prime).to_bytes(128, 'big'))
                shared = pow(int.from_bytes(output[1], 'big'), private, prime).to_bytes(128, 'big')
                key = HKDF(algorithm=hashes.SHA256(), length=16, salt=None, info=b'').derive(shared)
                def seal(plaintext, iv):
                    padder = padding.PKCS7(128).padder()
                    padded = padder.update(plaintext) + padder.finalize()
                    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
                    return encryptor.update(padded) + encryptor.finalize()
                def raw(blocks, iv):
                    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
                    return encryptor.update(blocks) + encryptor.finalize()
                def open_reply(secret):
                    _, iv, value, content_type = secret
                    decryptor = Cipher(algorithms.AES(key), modes.CBC(bytes(iv))).decryptor()
                    unpadder = padding.PKCS7(128).unpadder()
                    padded = decryptor.update(bytes(value)) + decryptor.finalize()
                    return unpadder.update(padded) + unpadder.finalize()
                iv = os.urandom(16)
                properties = {'org.freedesktop.Secret.Item.Attributes': ('a{ss}', {'service': 'sealed', 'account': 'a'})}
                item = call(service + '/collection/login', 'org.freedesktop.Secret.Collection', 'CreateItem',
                            'a{sv}(oayays)b', (properties, (session, iv, seal(b'right secret', iv), 'text/plain'), True))[0]
                def set_secret(parameters, value):
                    return call(item, 'org.freedesktop.Secret.Item', 'SetSecret', '(oayays)',
                                ((session, parameters, value, 'text/plain'),))
                def get_secret():
                    return open_reply(call(item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (session,))[0])
                print('stored', get_secret())
                attempts = {
                    # The last byte of the padding is 0, and 17 > 16.
                    'zero-padding': (iv, raw(b'x' * 15 + b'\\x00', iv)),
                    'long-padding': (iv, raw(b'x' * 15 + b'\\x11', iv)),
                    'mixed-padding': (iv, raw(b'x' * 12 + b'\\x01\\x04\\x04\\x04', iv)),
                    'short-iv': (iv[:8], seal(b'wrong secret', iv)),
                    'long-iv': (iv + iv, seal(b'wrong secret', iv)),
                    'no-iv': (b'', seal(b'wrong secret', iv)),
                    'partial-block': (iv, seal(b'wrong secret', iv)[:15]),
                    'no-value': (iv, b''),
                }
                for name, (parameters, value) in attempts.items():
                    print(name, set_secret(parameters, value)[1])
                print('kept', get_secret())
                print('other-session', call(service + '/collection/login', 'org.freedesktop.Secret.Collection', 'CreateItem',
                      'a{sv}(oayays)b', (properties, (service + '/session/999', iv, seal(b'x', iv), 'text/plain'), True))[1])
                iv = os.urandom(16)
                print('replaced', set_secret(iv, seal(b'new secret', iv)), get_secret())
                """])
            #expect(outcome.status == 0, "\(outcome.errors)")
            let invalid = "org.freedesktop.DBus.Error.InvalidArgs"
            #expect(outcome.output == """
                above \(invalid) \(invalid)
                stored b'right secret'
                zero-padding \(invalid)
                long-padding \(invalid)
                mixed-padding \(invalid)
                short-iv \(invalid)
                long-iv \(invalid)
                no-iv \(invalid)
                partial-block \(invalid)
                no-value \(invalid)
                kept b'right secret'
                other-session org.freedesktop.Secret.Error.NoSession
                replaced () b'new secret'

                """)
            #expect(bus.providerIsRunning)
        }
    }
}
