import Foundation
import Testing
import TestSupport
import TestTags
@testable import KeychainSync

/// Reaching the server: notifications, restarts and outages, TLS, Unix sockets, credentials.
@Suite(.serialized, .tags(.slow), .enabled(if: PostgresTestServer.isInstalled, "needs PostgreSQL (Scripts/test installs it)"))
struct SyncServerConnectionTests {
    typealias Fixture = SyncServerFixture

    /// changes() yields once when listening starts, then on an append made through another
    /// connection (the agent's signal to read within a second on a LAN).
    @Test func notificationArrivesAfterAnAppendFromAnotherConnection() async throws {
        try await Fixture.withGroup { postgres, listener, group in
            let counter = YieldCounter()
            await counter.consume(await listener.changes(group))
            #expect(await counter.reaches(1), "a first yield once listening")
            try await Fixture.withServer(postgres.tcpAddress()) { writer in
                _ = try await writer.append(group, records: [(Data([1]), Fixture.version(1), false, Data([1]))])
            }
            #expect(await counter.reaches(2), "a yield after the append")
            // Another group's appends do not wake this one.
            let other = Fixture.randomBytes(16)
            try await listener.createGroup(other, genesis: Data([0]))
            _ = try await listener.append(other, records: [(Data([1]), Fixture.version(1), false, Data([1]))])
            try await Fixture.withServer(postgres.tcpAddress()) { writer in
                try await writer.postJoinRequest(group, device: Data([7]), request: Data([8]))
            }
            #expect(await counter.reaches(3), "a join request wakes the members")
            #expect(await counter.count == 3)
            await counter.stop()
        }
    }

    /// After the server restarts, the next call works again (the one that found the connection
    /// cut, if any, is `.unreachable`), and changes() yields once it listens again.
    @Test func serverRestartedNextCallWorksAndChangesYieldAgain() async throws {
        try await Fixture.withGroup { postgres, server, group in
            let counter = YieldCounter()
            await counter.consume(await server.changes(group))
            #expect(await counter.reaches(1))
            try postgres.restart()
            do {
                _ = try await server.records(group, after: 0, limit: 1)
            } catch let error as SyncServerError {
                guard case .unreachable = error else {
                    Issue.record("\(error) after a restart")
                    return
                }
            }
            _ = try await server.append(group, records: [(Data([1]), Fixture.version(1), false, Data([1]))])
            #expect(try await server.records(group, after: 0, limit: 10).count == 1)
            #expect(await counter.reaches(2, within: .seconds(60)), "a yield after reconnecting")
            await counter.stop()
        }
    }

    /// A stopped server is `.unreachable` within the connect timeout, for a new connection
    /// and for one that was open; the error names no password.
    @Test func stoppedServerIsUnreachableQuickly() async throws {
        try await PostgresTestServer.with { postgres in
            let address = postgres.tcpAddress()
            let server = try await SyncServer.connect(SyncServerAddress(parsing: address), logger: Fixture.logger,
                                                      operationTimeout: Fixture.operationTimeout)
            try await server.migrate()
            try postgres.stop()
            for _ in 0..<2 {
                let outcome = try await within(.seconds(30)) { () -> SyncServerError? in
                    do {
                        _ = try await server.groups()
                        return nil
                    } catch {
                        return error as? SyncServerError ?? .rejected("not a SyncServerError: \(error)")
                    }
                }
                guard case .unreachable = outcome else {
                    Issue.record("\(String(describing: outcome)) from a stopped server")
                    break
                }
                #expect(outcome?.description.contains(postgres.password) == false)
            }
            await server.close()
            let connecting = try await within(.seconds(30)) { () -> SyncServerError? in
                do {
                    _ = try await SyncServer.connect(SyncServerAddress(parsing: address), logger: Fixture.logger)
                    return nil
                } catch {
                    return error as? SyncServerError ?? .rejected("not a SyncServerError: \(error)")
                }
            }
            guard case .unreachable(let reason) = connecting else {
                Issue.record("\(String(describing: connecting)) connecting to a stopped server")
                return
            }
            #expect(!reason.contains(postgres.password))
        }
    }

    /// A server killed outright (a crash) cuts the connection: calls are `.unreachable`, never
    /// a hang; once it is started again, the next call works.
    @Test func serverKilledThenStartedAgainNextCallWorks() async throws {
        try await Fixture.withGroup { postgres, server, group in
            try postgres.kill9()
            let outcome = try await within(.seconds(30)) { () -> SyncServerError? in
                do {
                    _ = try await server.records(group, after: 0, limit: 1)
                    return nil
                } catch {
                    return error as? SyncServerError ?? .rejected("not a SyncServerError: \(error)")
                }
            }
            guard case .unreachable = outcome else {
                Issue.record("\(String(describing: outcome)) from a killed server")
                return
            }
            // The killed server's backends end on their own once they see it gone; until then
            // a new one refuses to start on the same data.
            var started = false
            for _ in 0..<20 where !started {
                started = (try? postgres.start()) != nil
                if !started { try await Task.sleep(for: .milliseconds(500)) }
            }
            try #require(started, "PostgreSQL did not start again: \(postgres.log.suffix(2000))")
            _ = try await server.append(group, records: [(Data([1]), Fixture.version(1), false, Data([1]))])
            #expect(try await server.records(group, after: 0, limit: 10).count == 1)
        }
    }

    /// A server that accepts connections but never answers (frozen) makes calls and new
    /// connections `.unreachable` after their timeouts, not hang; once it runs again, the
    /// next call works.
    @Test func frozenServerTimesOutThenWorksAgain() async throws {
        try await PostgresTestServer.with { postgres in
            // Migrated first without the short limit, which is for the frozen server only.
            try await Fixture.withServer(postgres.tcpAddress()) { try await $0.migrate() }
            let address = try SyncServerAddress(parsing: postgres.tcpAddress())
            let server = try await SyncServer.connect(address, logger: Fixture.logger, operationTimeout: .seconds(2))
            try postgres.pause()
            let outcome = try await within(.seconds(40)) { () -> SyncServerError? in
                do {
                    _ = try await server.groups()
                    return nil
                } catch {
                    return error as? SyncServerError ?? .rejected("not a SyncServerError: \(error)")
                }
            }
            let connecting = try await within(.seconds(40)) { () -> SyncServerError? in
                do {
                    _ = try await SyncServer.connect(address, logger: Fixture.logger)
                    return nil
                } catch {
                    return error as? SyncServerError ?? .rejected("not a SyncServerError: \(error)")
                }
            }
            try postgres.resume()
            guard case .unreachable = outcome, case .unreachable = connecting else {
                Issue.record("\(String(describing: outcome)), \(String(describing: connecting)) from a frozen server")
                await server.close()
                return
            }
            #expect(try await server.groups().isEmpty)
            await server.close()
        }
    }

    /// A wrong password is refused with the server's message, which never holds the password.
    @Test func wrongPasswordIsRejectedWithoutEchoingIt() async throws {
        try await PostgresTestServer.with { postgres in
            let wrong = "not-the-password-\(UUID().uuidString)"
            let address = postgres.tcpAddress().replacingOccurrences(of: postgres.password, with: wrong)
            do {
                _ = try await SyncServer.connect(SyncServerAddress(parsing: address), logger: Fixture.logger)
                Issue.record("connected with a wrong password")
            } catch let error as SyncServerError {
                guard case .rejected(let message) = error else {
                    Issue.record("\(error) for a wrong password")
                    return
                }
                #expect(message.contains("password authentication failed"))
                #expect(!error.description.contains(wrong) && !error.description.contains(postgres.password))
            }
        }
    }

    /// verify-full against the CA that signed the server's certificate works, by name and by
    /// IP address; against another CA it is refused; require encrypts without checking.
    @Test func tlsVerifyFullWithTheRightCAAndRefusedWithAWrongOne() async throws {
        try await PostgresTestServer.with(tls: true) { postgres in
            let ca = try #require(postgres.caCertificate), otherCA = try #require(postgres.otherCACertificate)
            for host in ["localhost", "127.0.0.1"] {
                try await Fixture.withServer(postgres.tcpAddress(sslmode: "verify-full", rootCertificate: ca, host: host)) {
                    try await $0.migrate()
                }
            }
            // The session really is encrypted: the server's view of this connection.
            try await Fixture.withServer(postgres.tcpAddress(sslmode: "verify-full", rootCertificate: ca)) { server in
                try await server.createGroup(Fixture.randomBytes(16), genesis: Data([1]))
                let encrypted = try postgres.psql("""
                    SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid)
                    WHERE datname = 'keychain' AND ssl AND pid <> pg_backend_pid()
                    """)
                #expect(encrypted == "1\n")
            }
            do {
                _ = try await SyncServer.connect(
                    SyncServerAddress(parsing: postgres.tcpAddress(sslmode: "verify-full", rootCertificate: otherCA)),
                    logger: Fixture.logger)
                Issue.record("connected with a CA that did not sign the server's certificate")
            } catch let error as SyncServerError {
                guard case .unreachable(let reason) = error else {
                    Issue.record("\(error) for a wrong CA")
                    return
                }
                #expect(reason.contains("TLS"), "\(reason)")
            }
            // The system's CAs do not know the test CA either.
            await #expect(throws: SyncServerError.self) {
                _ = try await SyncServer.connect(
                    SyncServerAddress(parsing: postgres.tcpAddress(sslmode: "verify-full")), logger: Fixture.logger)
            }
            try await Fixture.withServer(postgres.tcpAddress(sslmode: "require")) { server in
                let groups = try await server.groups()
                #expect(groups.count == 1)
            }
        }
    }

    /// A connection through the Unix socket folder, like libpq's `host=/folder`.
    @Test func unixSocketWorks() async throws {
        try await PostgresTestServer.with { postgres in
            try await Fixture.withServer(postgres.socketAddress) { server in
                try await server.migrate()
                let group = Fixture.randomBytes(16)
                try await server.createGroup(group, genesis: Data([1]))
                #expect(try await server.groups() == [group])
                let sessions = try postgres.psql(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = 'keychain' AND client_port = -1 AND pid <> pg_backend_pid()")
                #expect(sessions == "1\n", "the sync server's session came through the socket")
            }
        }
    }

    /// close() ends changes() streams and later calls fail with `.closed`.
    @Test func closeEndsChangesAndLaterCalls() async throws {
        try await PostgresTestServer.with { postgres in
            let server = try await SyncServer.connect(SyncServerAddress(parsing: postgres.tcpAddress()), logger: Fixture.logger,
                                                      operationTimeout: Fixture.operationTimeout)
            try await server.migrate()
            let group = Fixture.randomBytes(16)
            try await server.createGroup(group, genesis: Data([1]))
            let stream = await server.changes(group)
            await server.close()
            let ended = try await within(.seconds(20)) {
                for await _ in stream {}
                return true
            }
            #expect(ended)
            await #expect(throws: SyncServerError.closed) { _ = try await server.groups() }
        }
    }
}
