import Foundation
import Testing
import TestSupport

/// The chapter's second exercise: two programs share items through the access group their
/// entitlements name; a third, without it, sees nothing.
@Suite struct SharingTests {
    let dataHome = TestScratch.folder("sharing")
    let programs = TestScratch.folder("sharing-programs")

    /// The example's entitlements file in the source tree, as Scripts/sharing-demo copies it.
    static func entitlements(_ folder: String, _ product: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/\(folder)/\(product).entitlements")
    }

    func writer(entitled: Bool = true) throws -> ProgramProcess {
        try ProgramProcess("keychain-share-writer").installed(
            in: programs, entitlements: entitled ? Self.entitlements("ShareWriter", "keychain-share-writer") : nil)
    }

    func reader() throws -> ProgramProcess {
        try ProgramProcess("keychain-share-reader").installed(
            in: programs, entitlements: Self.entitlements("ShareReader", "keychain-share-reader"))
    }

    func outsider() throws -> ProgramProcess {
        try ProgramProcess("keychain-share-outsider").installed(in: programs, entitlements: nil)
    }

    @Test func theReaderReadsWhatTheWriterStoredAndTheOutsiderFindsNothing() throws {
        let stored = try writer().run(["store", "alice", "s3cr3t"], dataHome: dataHome)
        #expect(stored.status == 0)
        #expect(stored.output.contains("Stored alice in the access group com.example.shared."))

        let reader = try reader()
        let read = try reader.run(["alice"], dataHome: dataHome)
        #expect(read.status == 0)
        #expect(read.output == "alice: s3cr3t\n")
        #expect(try reader.run([], dataHome: dataHome).output == "alice\n")

        let outside = try outsider().run(["alice"], dataHome: dataHome)
        #expect(outside.status == 0)
        #expect(outside.output.contains("In my own access groups: nothing found"))
        #expect(outside.output.contains("In com.example.shared: refused, this program does not hold the group"))
        #expect(!outside.output.contains("s3cr3t"))
    }

    @Test func whatTheWriterRemovesIsGoneForTheReader() throws {
        let writer = try writer()
        #expect(try writer.run(["store", "bob", "pw"], dataHome: dataHome).status == 0)
        #expect(try writer.run(["remove", "bob"], dataHome: dataHome).output.contains("Removed bob."))
        let read = try reader().run(["bob"], dataHome: dataHome)
        #expect(read.status == 1)
        #expect(read.errors.contains("Nothing is stored under bob in com.example.shared."))
    }

    @Test func withoutItsEntitlementsTheWriterIsRefusedTheGroup() throws {
        let outcome = try writer(entitled: false).run(["store", "carol", "pw"], dataHome: dataHome)
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("This program does not hold the access group com.example.shared."))
        #expect(try reader().run(["carol"], dataHome: dataHome).status == 1)
    }
}
