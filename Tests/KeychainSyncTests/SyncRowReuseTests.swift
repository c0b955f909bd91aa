import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// SQLite gives the id of a deleted row to the next row inserted when it was the highest: a
/// keychain row can hold another item between two passes of the agent. What the agent sends
/// must still say what happened to each item, and when.
@Suite("Sync when a keychain row comes to hold another item", .serialized)
struct SyncRowReuseTests {
    /// b deletes an item; a then writes it; b then adds an unrelated item, which takes the
    /// deleted item's row. The delete came before a's write, so a's write is what both end
    /// with: the delete is dated when it happened, not when its row was reused.
    @Test func aDeleteIsDatedWhenItHappenedNotWhenItsRowWasReused() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = try groupSharingAnItem(on: server)
        // b's newest row: the next row b adds takes its id.
        #expect(try b.delete(service: "shared", account: "x"))
        try writeOnAThenReuseTheRowOnB(a, b)
    }

    /// b applies a's deletion of an item, and its agent is killed before it records that in
    /// its state (the state file is put back as it was before the pass); a then writes the
    /// item again, and b adds an unrelated item, which takes the deleted item's row. b sends
    /// no deletion of its own for the item, which it never deleted: both end with a's write.
    @Test func aRemoteDeletionNotRecordedIsNotSentAsALocalOne() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = try groupSharingAnItem(on: server)
        let before = b.home.appendingPathComponent("state-before-the-deletion")
        try b.copySyncState(before)
        #expect(try a.delete(service: "shared", account: "x"))
        try syncOnce(a, b)
        #expect(try b.password(service: "shared", account: "x") == nil)
        try b.copySyncState(before, restoring: true)
        try writeOnAThenReuseTheRowOnB(a, b)
    }

    /// Members a and b of a group on `server`, both holding the item "shared", b in its
    /// newest row.
    private func groupSharingAnItem(on server: PostgresTestServer) throws -> (SyncMember, SyncMember) {
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "shared", account: "x", password: "first")
        try syncOnce(a, b)
        guard try b.password(service: "shared", account: "x") == "first" else { throw SyncTestFailure("b did not get the item") }
        return (a, b)
    }

    /// a writes the item "shared" (which b no longer holds) and sends it; b then adds an
    /// unrelated item, which takes the row "shared" had, and both pass. Both must end with
    /// a's write and b's item.
    private func writeOnAThenReuseTheRowOnB(_ a: SyncMember, _ b: SyncMember,
                                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        // Versions order by the clock's milliseconds: each change below is made in a later one.
        usleep(20_000)
        try a.store(service: "shared", account: "x", password: "written-after-the-delete", update: true)
        try syncOnce(a)
        usleep(20_000)
        try b.store(service: "unrelated", account: "x", password: "b-secret")
        try syncOnce(b, a)
        for member in [a, b] {
            #expect(try member.password(service: "shared", account: "x") == "written-after-the-delete", "on \(member.name)",
                    sourceLocation: sourceLocation)
            #expect(try member.password(service: "unrelated", account: "x") == "b-secret", "on \(member.name)",
                    sourceLocation: sourceLocation)
        }
    }
}
