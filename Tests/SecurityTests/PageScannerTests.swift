import Foundation
import GRDB
import KeychainProof
import Testing
import TestSupport

/// The remanence suite's page-version scanner, checked against SQLite itself: what it finds
/// in the files is what SQLite wrote, old versions included.
@Suite struct PageScannerTests {
    /// A database in WAL mode whose log is never checkpointed while the test looks.
    func database() throws -> (URL, DatabaseQueue) {
        let folder = TestScratch.folder("page-scanner")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("t.keychain-db")
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE keybag (name TEXT PRIMARY KEY NOT NULL, wrapping TEXT NOT NULL, wrapped BLOB NOT NULL)")
        }
        return (url, queue)
    }

    func bytes(_ count: Int, _ seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed } }

    @Test("Every version of a row in the log is found, the superseded one too (file format, WAL frames)")
    func findsSupersededVersionsInTheLog() throws {
        let (url, queue) = try database()
        defer { try? queue.close() }
        let old = bytes(60, 1), new = bytes(60, 2)
        try queue.write { try $0.execute(sql: "INSERT INTO keybag VALUES ('ak', 'device', ?)", arguments: [Data(old)]) }
        try queue.write { try $0.execute(sql: "UPDATE keybag SET wrapping = 'password', wrapped = ? WHERE name = 'ak'", arguments: [Data(new)]) }
        let rows = try RowVersions(database: url).keybag.filter { $0.name == "ak" }
        #expect(Set(rows.map(\.wrapped)) == [old, new])
        #expect(rows.contains { $0.wrapping == "device" && $0.location.hasPrefix("WAL frame") })
        // SQLite's own reading agrees on the live row.
        let live = try queue.read { try Data.fetchOne($0, sql: "SELECT wrapped FROM keybag WHERE name = 'ak'") }
        #expect(live.map(Array.init) == new)
    }

    @Test("A payload longer than a page is read whole through its overflow chain (file format 1.6)")
    func readsOverflowPages() throws {
        let (url, queue) = try database()
        defer { try? queue.close() }
        let long = bytes(20_000, 7)
        try queue.write { try $0.execute(sql: "INSERT INTO keybag VALUES ('long', 'device', ?)", arguments: [Data(long)]) }
        let rows = try RowVersions(database: url).keybag.filter { $0.name == "long" }
        #expect(rows.count == 1)
        #expect(rows.first?.wrapped == long)
    }

    @Test("Frames past the live end of a restarted log, under an older salt, are read too")
    func readsFramesOfAnOlderSalt() throws {
        let (url, queue) = try database()
        defer { try? queue.close() }
        let old = bytes(60, 3)
        try queue.write { try $0.execute(sql: "INSERT INTO keybag VALUES ('ck', 'device', ?)", arguments: [Data(old)]) }
        for index in 0..<20 {
            try queue.write { try $0.execute(sql: "INSERT INTO keybag VALUES (?, 'device', ?)", arguments: ["pad\(index)", Data(bytes(900, 4))]) }
        }
        try queue.writeWithoutTransaction { _ = try $0.checkpoint(.restart) }
        // The next commit starts the log over with a new salt, over the first frames only.
        try queue.write { try $0.execute(sql: "UPDATE keybag SET wrapped = ? WHERE name = 'ck'", arguments: [Data(bytes(60, 5))]) }
        let log = try FileBytes.read(URL(fileURLWithPath: url.path + "-wal"))
        #expect(log.count > 10 * 4096, "the log was not kept at its length")
        #expect(!ByteSearch.offsets(of: Array("pad19".utf8), in: log).isEmpty)
        let versions = try RowVersions(database: url).keybag
        #expect(versions.contains { $0.name == "pad19" && $0.location.hasPrefix("WAL frame") })
    }
}
