import Foundation
import Testing
import TestSupport

/// How Secret Service items sit in the keychain, read with keychainctl: the attribute set's
/// canonical encoding in kSecAttrGeneric (`gena`), and the keychain service and account of
/// items that have no `service` or `account` attribute. Other tools and later versions read
/// these, so they are pinned byte for byte.
@Suite struct StoredLayoutTests {
    /// The encoding: "SSA1", the pair count, then each pair by ascending name, as 32-bit
    /// big-endian lengths and UTF-8 bytes.
    @Test func theAttributeSetIsKeptInItsCanonicalEncoding() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            // Given out of order: the encoding sorts the names.
            let stored = try bus.secretTool("store", "--label", "L", "type", "x", "service", "S", "account", "A", input: "pw")
            #expect(stored.status == 0, "\(stored.errors)")
            let found = try bus.keychainctl("find-generic-password", "-s", "S", "-a", "A")
            let expected = "5353413100000003" + "00000007" + "6163636F756E74" + "00000001" + "41"
                + "00000007" + "73657276696365" + "00000001" + "53" + "00000004" + "74797065" + "00000001" + "78"
            #expect(found.output.contains("    \"gena\"<blob>=0x\(expected)  "), "\(found.output)")
        }
    }

    /// Items without `service` or `account` get `secret-service:` and the first 16 bytes of
    /// the encoding's SHA-256 (checked with coreutils' sha256sum) in both fields, so that two
    /// such sets never collide in the keychain's one-item-per-service-and-account rule.
    @Test func itemsWithoutServiceOrAccountAreKeyedByTheirAttributesDigest() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.secretTool("store", "--label", "L", "host", "b", input: "one").status == 0)
            #expect(try bus.secretTool("store", "--label", "L", "host", "c", input: "two").status == 0)
            let encoding = Data("SSA1".utf8) + Data([0, 0, 0, 1, 0, 0, 0, 4]) + Data("host".utf8) + Data([0, 0, 0, 1])
                + Data("b".utf8)
            let file = TestScratch.folder("encoding")
            try encoding.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let digest = try bus.run("/usr/bin/sha256sum", [file.path]).output.prefix(32)
            #expect(digest.count == 32)
            let found = try bus.keychainctl("find-generic-password", "-s", "secret-service:\(digest)",
                                            "-a", "secret-service:\(digest)", "-w")
            #expect(found.status == 0, "\(found.errors)")
            #expect(found.output == "one\n")
            #expect(try bus.secretTool("lookup", "host", "c").output == "two")
        }
    }

    /// The keychain keeps one generic password per service and account: a second set with
    /// the same service and account but other attributes is refused with a message saying
    /// so, and the first item is left as it was.
    @Test func anotherSetWithTheSameServiceAndAccountIsRefusedClearly() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.secretTool("store", "--label", "L", "service", "S", "account", "A", "type", "x", input: "first").status == 0)
            let second = try bus.secretTool("store", "--label", "L", "service", "S", "account", "A", "type", "y", input: "second")
            #expect(second.status != 0)
            #expect(second.errors.contains(
                "the keychain already holds an item of the same service and account (service 'S', account 'A'); it keeps one"),
                "\(second.errors)")
            #expect(try bus.secretTool("lookup", "type", "x").output == "first")
            #expect(try bus.secretTool("lookup", "type", "y").status != 0)
        }
    }
}
