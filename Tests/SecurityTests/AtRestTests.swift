import Foundation
import Security
import Testing
import TestSupport

/// What is on disk: nothing readable, and nothing readable by other users.
@Suite struct AtRestTests {
    @Test func noSecretAccountServiceOrLabelIsStoredInPlaintext() throws {
        let keychain = PrivateKeychain()
        var markers: [String] = []
        // Markers that differ from each other, the same on every run.
        var generator = SeededGenerator(seed: 200)
        for index in 0..<200 {
            let marker = "MARK" + String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 16, uppercase: true)
            markers.append(marker)
            let item: [String: Any] = [
                kSecClass as String: index.isMultiple(of: 2) ? kSecClassGenericPassword : kSecClassInternetPassword,
                kSecAttrAccount as String: "\(marker)-account",
                (index.isMultiple(of: 2) ? kSecAttrService : kSecAttrServer) as String: "\(marker)-service",
                kSecAttrLabel as String: "\(marker)-label",
                kSecAttrComment as String: "\(marker)-comment",
                kSecValueData as String: Data("\(marker)-secret".utf8),
            ]
            #expect(keychain.add(item) == errSecSuccess)
        }
        // Some updates and deletes too, so that the WAL holds rewritten and freed pages.
        #expect(keychain.update(genericPassword(account: "\(markers[0])-account", service: "\(markers[0])-service"),
                                [kSecValueData as String: Data("\(markers[0])-secret2".utf8)]) == errSecSuccess)
        #expect(keychain.delete(genericPassword(account: "\(markers[2])-account", service: "\(markers[2])-service")) == errSecSuccess)

        let files = try keychain.files()
        #expect(files.contains { $0.lastPathComponent.hasSuffix("-wal") })
        let prefixes = Set(markers.map { $0.prefix(8) })
        for file in files {
            let bytes = try Data(contentsOf: file)
            for marker in markers {
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file.lastPathComponent) holds a marker")
            }
            #expect(prefixes.allSatisfy { bytes.range(of: Data($0.utf8)) == nil })
        }
    }

    @Test func filesAreReadableByTheirOwnerOnly() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("x".utf8)])) == errSecSuccess)
        let folder = try FileManager.default.attributesOfItem(atPath: keychain.directory.path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        for file in try keychain.files() {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file.lastPathComponent)")
        }
    }

    /// The library never changes the mode of a folder it did not create (a keychain in ./);
    /// its own files in it are still 0600.
    @Test func anExistingFolderKeepsItsMode() throws {
        let keychain = PrivateKeychain()
        try FileManager.default.createDirectory(at: keychain.directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let folder = try FileManager.default.attributesOfItem(atPath: keychain.directory.path)
        #expect((folder[.posixPermissions] as? Int) == 0o755)
        for file in try keychain.files() {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file.lastPathComponent)")
        }
    }
}
