import Foundation
@testable import KeychainCore
import Testing
import TestTags
import TestSupport

/// Processes that add and exit at once (a command-line tool) never let their background
/// checkpoint run, and every later process would read the whole log they left when it opens
/// the keychain. The next open copies such a log into the database and truncates it.
@Suite struct LongLogTests {
    @Test func openingAKeychainWithALongLogTruncatesIt() throws {
        let files = KeychainFiles(directory: TestScratch.folder("long-log"), name: "login")
        let caller = CallerIdentity(accessGroups: ["com.example.app"])
        let writer = try KeychainStore.open(files)
        // A few log frames per add: past the 1 MiB that counts as long, short of the 1,000
        // frames at which the writer would ask for a background checkpoint, which would
        // hold the log while the reader opens.
        for index in 0..<150 {
            _ = try writer.add(NewItem(itemClass: .genericPassword, attributes: [
                "acct": .string("user-\(index)"), "svce": .string("example.com"),
            ], data: Data("secret-\(index)".utf8)), by: caller)
        }
        let log = files.database.path + "-wal"
        try #require(try logSize(log) > WALCheckpointer.longLogBytes)
        try #require(try logSize(log) < Int(WALCheckpointer.backgroundPages) * 4_096)

        let reader = try KeychainStore.open(files)
        #expect(try logSize(log) == 0)
        let found = try reader.find(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("user-149")],
                                              returning: .data), by: caller)
        #expect(found.first?.data == Data("secret-149".utf8))
        // The first connection goes on working on the truncated log.
        _ = try writer.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string("late")]), by: caller)
        #expect(try reader.find(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("late")]),
                                by: caller).count == 1)
    }

    /// Durability: every commit syncs the log, and a commit that lengthens the file also
    /// waits for its new size to reach the disk. Through a long burst of adds the log starts
    /// over at ``WALCheckpointer/foregroundPages`` frames instead of growing.
    @Test(.tags(.slow)) func aBurstOfAddsStartsTheLogOverInsteadOfGrowingIt() throws {
        let files = KeychainFiles(directory: TestScratch.folder("burst"), name: "login")
        let caller = CallerIdentity(accessGroups: ["com.example.app"])
        let writer = try KeychainStore.open(files)
        let log = files.database.path + "-wal"
        // A frame is a page and its 24-byte header.
        let frame = 4_096 + 24
        var largest = 0
        // About three frames per add: several times the frames at which the log starts over.
        for index in 0..<2_500 {
            _ = try writer.add(NewItem(itemClass: .genericPassword, attributes: [
                "acct": .string("user-\(index)"), "svce": .string("example.com"),
            ], data: Data("secret-\(index)".utf8)), by: caller)
            largest = max(largest, try logSize(log))
        }
        // A commit may land a batch past the limit before the log starts over.
        #expect(largest <= (Int(WALCheckpointer.foregroundPages) + 64) * frame + 32, "log grew to \(largest) bytes")
        #expect(largest > Int(WALCheckpointer.backgroundPages) * frame, "the burst did not reach the limit")
    }

    private func logSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }
}
