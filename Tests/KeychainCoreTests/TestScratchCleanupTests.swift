import Foundation
import Testing
import TestSupport

/// A test run killed before its exit handler leaves its scratch folder (keychains and copies
/// of programs, gigabytes); the next run removes such folders, and only those.
@Suite("Scratch folders of ended test runs")
struct TestScratchCleanupTests {
    @Test("Only this user's folders of processes that are gone are removed; live runs, other names and links stay")
    func removesOnlyFoldersOfEndedRuns() throws {
        let folder = TestScratch.folder("scratch-cleanup")
        let files = FileManager.default
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: folder) }

        // A process that has ended, and been reaped: its id names no process now.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let gone = ended.processIdentifier

        func make(_ name: String) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try files.createDirectory(at: url, withIntermediateDirectories: true)
            try Data("keychain".utf8).write(to: url.appendingPathComponent("inside"))
            return url
        }
        let endedRun = try make("swift-keychain-tests-\(gone)-\(UUID().uuidString)")
        let ownRun = try make("swift-keychain-tests-\(getpid())-\(UUID().uuidString)")
        let liveRun = try make("swift-keychain-tests-1-\(UUID().uuidString)")   // init never ends
        let homes = try make("swift-keychain-tests-homes-abc123")
        let unrelated = try make("other-\(gone)-folder")
        // A link named as an ended run's folder, to a folder that must survive.
        let target = try make("link-target")
        let link = folder.appendingPathComponent("swift-keychain-tests-\(gone)-link")
        try files.createSymbolicLink(at: link, withDestinationURL: target)

        let removed = TestScratch.removeFoldersOfEndedRuns(in: folder)

        #expect(removed == [endedRun.lastPathComponent])
        #expect(!files.fileExists(atPath: endedRun.path))
        for kept in [ownRun, liveRun, homes, unrelated, target] {
            #expect(files.fileExists(atPath: kept.appendingPathComponent("inside").path), "\(kept.lastPathComponent)")
        }
        #expect((try? files.destinationOfSymbolicLink(atPath: link.path)) == target.path)
    }
}
