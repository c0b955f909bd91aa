import Foundation
import Testing
import TestTags
import TestSupport

/// Damage is contained in the backup path: one item that fails to open (its row altered by
/// someone with the files) costs that item, not the dump or the export of the others. The
/// skipped items are listed on standard error, and the exit status is errSecDecode's (93).
@Suite struct DamagedItemTests {
    let keychainctl = Keychainctl()
    let archive = TestScratch.folder("damaged-archive").appendingPathComponent("work.archive")

    /// `work`, without a password, with three items; the second (row 2) has a byte of its
    /// sealed `column` flipped, as an attacker with the files would.
    func damagedKeychain(column: String) throws {
        try keychainctl("create-keychain", "-p", "", "work")
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "kept one", "work")
        try keychainctl("add-generic-password", "-a", "mallory", "-s", "example.com", "-w", "lost", "work")
        try keychainctl("add-internet-password", "-a", "bob", "-s", "example.com", "-w", "kept two", "work")
        try flipByte(of: column, inRow: 2, of: keychainctl.path(of: "work"))
    }

    /// XORs one byte in the middle of a blob with the sqlite3 shell, an implementation of its
    /// own: every value of the byte changes.
    func flipByte(of column: String, inRow row: Int, of database: String) throws {
        let hex = try sqlite(database, "SELECT hex(\(column)) FROM item WHERE id = \(row);")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var bytes = try #require(Self.bytes(hex))
        #expect(bytes.count > 16)
        bytes[bytes.count / 2] ^= 0x01
        let flipped = bytes.map { String(format: "%02X", $0) }.joined()
        _ = try sqlite(database, "UPDATE item SET \(column) = x'\(flipped)' WHERE id = \(row);")
        #expect(try sqlite(database, "SELECT hex(\(column)) FROM item WHERE id = \(row);")
            .trimmingCharacters(in: .whitespacesAndNewlines) == flipped)
    }

    func sqlite(_ database: String, _ sql: String) throws -> String {
        let process = try SpawnedProcess("/usr/bin/sqlite3", [database, sql], environment: [:],
                                         stdin: .open("/dev/null", 0), stdout: .pipe)
        let output = process.readOutputToEnd()
        #expect(process.wait().status == 0, "sqlite3 \(sql)")
        return output
    }

    static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
        }.reduce(into: [UInt8]?([])) { result, byte in
            guard let byte else { result = nil; return }
            result?.append(byte)
        }
    }

    static func skippedReport(_ operation: String, _ verb: String) -> String {
        "keychainctl: \(operation): 1 item could not be opened (damaged or altered; errSecDecode) and was skipped; "
            + "the other items were \(verb):\n    row 2: class genp, protection ak, not synchronizable\n"
    }

    @Test(arguments: ["attributes", "secret"])
    func aDumpWithDataShowsTheOtherItemsAndReportsTheDamagedOne(_ column: String) throws {
        try damagedKeychain(column: column)
        let dump = try keychainctl("dump-keychain", "-d", "work")
        #expect(dump.status == 93)   // errSecDecode, -26275
        #expect(dump.errors == Self.skippedReport("dump-keychain", "shown"))
        #expect(dump.output.contains("\"acct\"<blob>=\"alice\""))
        #expect(dump.output.contains("\"acct\"<blob>=\"bob\""))
        #expect(dump.output.contains("kept one") && dump.output.contains("kept two"))
        #expect(!dump.output.contains("mallory") && !dump.output.contains("lost"))
    }

    @Test func aDumpWithoutDataOpensNoSecretSoOnlyDamagedAttributesAreSkipped() throws {
        try damagedKeychain(column: "attributes")
        let json = try keychainctl("dump-keychain", "--json", "work")
        #expect(json.status == 93)
        #expect(json.errors == Self.skippedReport("dump-keychain", "shown"))
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(items.count == 2)
    }

    @Test(.tags(.slow), arguments: ["attributes", "secret"])
    func anExportWritesTheOtherItemsReportsTheDamagedOneAndImports(_ column: String) throws {
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try damagedKeychain(column: column)
        let exported = try keychainctl("export-archive", "-k", "work", "-o", archive.path, "--password-stdin",
                                       input: "archive pw\n")
        #expect(exported.status == 93)
        #expect(exported.output.isEmpty)
        #expect(exported.errors == Self.skippedReport("export-archive", "exported"))

        try keychainctl("create-keychain", "-p", "", "home")
        let imported = try keychainctl("import-archive", "-k", "home", "--password-stdin", archive.path,
                                       input: "archive pw")
        #expect(imported.status == 0)
        #expect(imported.errors == "imported: 2, replaced: 0, skipped: 0\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "home").output == "kept one\n")
        #expect(try keychainctl("find-internet-password", "-a", "bob", "-w", "home").output == "kept two\n")
        #expect(try keychainctl("find-generic-password", "-a", "mallory", "home").status == 44)
    }

    @Test func anUndamagedKeychainDumpsAndExportsWithStatusZero() throws {
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try keychainctl("create-keychain", "-p", "", "work")
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "kept", "work")
        let dump = try keychainctl("dump-keychain", "work")
        #expect(dump.status == 0 && dump.errors.isEmpty)
        let exported = try keychainctl("export-archive", "-k", "work", "-o", archive.path, "--password-stdin",
                                       input: "archive pw\n")
        #expect(exported.status == 0 && exported.errors.isEmpty)
    }
}
