import Foundation
import Testing
import TestSupport

/// The content type of a secret (the `content_type` of the API's Secret struct) is stored with
/// the item, sealed in its `kSecAttrGeneric` beside the attribute set, and returned by
/// GetSecret and GetSecrets; driven by Python's secretstorage.
@Suite struct ContentTypeTests {
    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        let prelude = """
            import secretstorage, sys
            from secretstorage.util import DBusAddressWrapper
            connection = secretstorage.dbus_init()
            collection = secretstorage.get_default_collection(connection)
            service = DBusAddressWrapper('/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', connection)

            """
        return try bus.run("/usr/bin/python3", ["-c", prelude + script])
    }

    /// CreateItem's and SetSecret's content type is what GetSecret and GetSecrets answer, for
    /// an empty secret too; a secret stored without one (keychainctl's) is `text/plain`.
    @Test func theContentTypeGivenIsTheOneReturned() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.keychainctl("add-generic-password", "-s", "cli.example", "-a", "a", "-w", "pw").status == 0)
            let outcome = try python(bus, """
                item = collection.create_item('K', {'service': 'ct.example', 'account': 'a'}, b'\\x00\\x01',
                                              content_type='application/octet-stream')
                print(item.get_secret_content_type(), item.get_secret())
                item.set_secret(b'{}', content_type='application/json')
                print(item.get_secret_content_type(), item.get_secret())
                [cli] = collection.search_items({'service': 'cli.example'})
                secrets = service.call('GetSecrets', 'aoo', [item.item_path, cli.item_path], collection.session.object_path)[0]
                print(secrets[item.item_path][3], secrets[cli.item_path][3])
                empty = collection.create_item('E', {'service': 'empty.example', 'account': 'a'}, b'',
                                               content_type='application/x-empty')
                print(empty.get_secret(), empty.get_secret_content_type())
                """)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == """
                application/octet-stream b'\\x00\\x01'
                application/json b'{}'
                application/json text/plain
                b'' application/x-empty

                """)
        }
    }

    /// Layout: a content type other than `text/plain` follows the set's encoding in
    /// `kSecAttrGeneric` as `SSCT`, its 32-bit big-endian length and its bytes; back to
    /// `text/plain`, the generic data is the set's encoding alone again.
    @Test func theContentTypeFollowsTheAttributeSetInTheGenericData() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let set = "5353413100000002000000076163636F756E74000000016100000007736572766963650000000A63742E6578616D706C65"
            let stored = try python(bus, """
                collection.create_item('K', {'service': 'ct.example', 'account': 'a'}, b'x', content_type='application/json')
                """)
            #expect(stored.status == 0, "\(stored.errors)")
            let withType = try bus.keychainctl("find-generic-password", "-s", "ct.example", "-a", "a")
            #expect(withType.output.contains("    \"gena\"<blob>=0x\(set)53534354000000106170706C69636174696F6E2F6A736F6E  "),
                    "\(withType.output)")
            let plain = try python(bus, """
                [item] = collection.search_items({'service': 'ct.example'})
                item.set_secret(b'y')
                print(item.get_secret_content_type())
                """)
            #expect(plain.output == "text/plain\n", "\(plain.errors)")
            let withoutType = try bus.keychainctl("find-generic-password", "-s", "ct.example", "-a", "a")
            #expect(withoutType.output.contains("    \"gena\"<blob>=0x\(set)  "), "\(withoutType.output)")
        }
    }

    /// An item whose generic data another program wrote keeps it: a secret of another content
    /// type is refused with a message and changes nothing; a `text/plain` one is stored.
    @Test func anotherProgramsGenericDataIsNeverOverwritten() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let added = try bus.keychainctl("add-generic-password", "-s", "fg.example", "-a", "a", "-G", "theirs", "-w", "pw")
            #expect(added.status == 0, "\(added.errors)")
            let outcome = try python(bus, """
                [item] = collection.search_items({'service': 'fg.example'})
                try:
                    item.set_secret(b'json', content_type='application/json')
                except Exception as error:
                    print('refused', 'belongs to another program' in str(error))
                print(item.get_secret(), item.get_secret_content_type())
                item.set_secret(b'new')
                print(item.get_secret())
                """)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == "refused True\nb'pw' text/plain\nb'new'\n")
            let found = try bus.keychainctl("find-generic-password", "-s", "fg.example", "-a", "a")
            #expect(found.output.contains("    \"gena\"<blob>=\"theirs\"\n"), "\(found.output)")
        }
    }
}
