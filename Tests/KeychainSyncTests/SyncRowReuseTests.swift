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
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "shared", account: "x", password: "first")
        try syncOnce(a, b)
        #expect(try b.password(service: "shared", account: "x") == "first")
        // b's newest row: the next row b adds takes its id.
        #expect(try b.delete(service: "shared", account: "x"))
        usleep(20_000)
        try a.store(service: "shared", account: "x", password: "written-after-the-delete", update: true)
        try syncOnce(a)
        usleep(20_000)
        try b.store(service: "unrelated", account: "x", password: "b-secret")
        try syncOnce(b, a)
        for member in [a, b] {
            #expect(try member.password(service: "shared", account: "x") == "written-after-the-delete", "on \(member.name)")
            #expect(try member.password(service: "unrelated", account: "x") == "b-secret", "on \(member.name)")
        }
    }
}
