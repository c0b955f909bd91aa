import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Sync over TLS (`sslmode=verify-full` with the CA in `sslrootcert`) and over the server's
/// Unix socket, end to end with keychainctl: setup, join, approve and the agents all use the
/// address, and the server's own view of the connections (pg_stat_ssl, pg_stat_activity) says
/// how they came.
@Suite("Sync over TLS and a Unix socket", .serialized, .tags(.slow),
       .enabled(if: PostgresTestServer.isInstalled, "needs PostgreSQL (Scripts/test installs it)"))
struct SyncServerTransportTests {
    /// The sync user's connections other than psql's own, as the server counts them.
    static func clientConnections(_ server: PostgresTestServer, where condition: String) throws -> Int {
        let count = try server.psql("""
            SELECT count(*) FROM pg_stat_activity AS a JOIN pg_stat_ssl AS s USING (pid)
            WHERE a.usename = '\(PostgresTestServer.user)' AND a.datname = '\(PostgresTestServer.database)'
            AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend' AND \(condition)
            """)
        return Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Issue requirement "works with TLS": a group formed and synced over `verify-full` with
    /// the right CA; every connection of the agents is encrypted.
    @Test func membersSyncOverVerifiedTLS() async throws {
        let server = try PostgresTestServer(tls: true)
        defer { server.remove() }
        let address = server.tcpAddress(sslmode: "verify-full", rootCertificate: server.caCertificate)
        let (laptop, desktop) = (try SyncMember("laptop"), try SyncMember("desktop"))
        try formGroup(server: address, founder: laptop, others: [desktop])
        try laptop.startAgent()
        try desktop.startAgent()
        try laptop.store(service: "over-tls", account: "me", password: "tls-secret")
        try eventually(30, "the item reaches the desktop over TLS") {
            try desktop.password(service: "over-tls", account: "me") == "tls-secret"
        }
        try desktop.store(service: "over-tls", account: "me", password: "tls-secret-2", update: true)
        try eventually(30, "the update reaches the laptop over TLS") {
            try laptop.password(service: "over-tls", account: "me") == "tls-secret-2"
        }
        // Each agent holds a connection for calls and one listening: all over TLS, none without.
        #expect(try Self.clientConnections(server, where: "s.ssl") >= 2)
        #expect(try Self.clientConnections(server, where: "NOT s.ssl") == 0)
        #expect(laptop.stopAgent() == 0)
        #expect(desktop.stopAgent() == 0)
    }

    /// Rule "a server whose certificate does not chain to sslrootcert is refused": `sync setup`
    /// with another CA fails with exit status 1 and a message naming the TLS failure, writes
    /// nothing on the server, and leaves the keychain free to set up with the right CA.
    @Test func setupWithAWrongCAFailsClearly() async throws {
        let server = try PostgresTestServer(tls: true)
        defer { server.remove() }
        let member = try SyncMember("laptop")
        let wrong = try member.run("sync", "setup", "--server",
                                   server.tcpAddress(sslmode: "verify-full", rootCertificate: server.otherCACertificate),
                                   "--name", "laptop")
        #expect(wrong.status == 1)
        #expect(wrong.errors.contains("sync setup") && wrong.errors.contains("TLS failed"), "\(wrong.errors)")
        #expect(wrong.errors.contains("CERTIFICATE_VERIFY_FAILED") || wrong.errors.contains("certificate"), "\(wrong.errors)")
        #expect(!wrong.errors.contains(server.password))
        // Refused before any query: not even the schema was made.
        #expect(try server.psql("SELECT to_regclass('keychain_sync_groups') IS NULL").trimmingCharacters(in: .whitespacesAndNewlines) == "t")

        let right = try member.run("sync", "setup", "--server",
                                   server.tcpAddress(sslmode: "verify-full", rootCertificate: server.caCertificate),
                                   "--name", "laptop")
        #expect(right.status == 0, "\(right.errors)")
    }

    /// Issue requirement "works with a Unix socket": a group formed and synced through the
    /// socket address; the server sees every agent connection on the socket (no client address).
    @Test func membersSyncOverTheUnixSocket() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (laptop, desktop) = (try SyncMember("laptop"), try SyncMember("desktop"))
        try formGroup(server: server.socketAddress, founder: laptop, others: [desktop])
        try laptop.startAgent()
        try desktop.startAgent()
        try desktop.store(service: "over-socket", account: "me", password: "socket-secret")
        try eventually(30, "the item reaches the laptop through the socket") {
            try laptop.password(service: "over-socket", account: "me") == "socket-secret"
        }
        try laptop.delete(service: "over-socket", account: "me")
        try eventually(30, "the delete reaches the desktop through the socket") {
            try desktop.password(service: "over-socket", account: "me") == nil
        }
        #expect(try Self.clientConnections(server, where: "a.client_port = -1") >= 2)
        #expect(try Self.clientConnections(server, where: "a.client_addr IS NOT NULL") == 0)
        #expect(laptop.stopAgent() == 0)
        #expect(desktop.stopAgent() == 0)
    }
}
