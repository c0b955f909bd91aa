import Foundation
import Testing
@testable import KeychainSync

/// The server address: libpq's URL forms, clear errors for anything else, and never the password.
@Suite struct SyncServerAddressTests {
    static let password = "Pa55-w0rd-secret"

    @Test func tcpAddressWithEveryPartParsesLikeLibpq() throws {
        let address = try SyncServerAddress(parsing: "postgres://sync:\(Self.password)@db.example.com:6543/keychain?sslmode=require")
        #expect(address.endpoints == [.tcp(host: "db.example.com", port: 6543)])
        #expect(address.user == "sync")
        #expect(address.password == Self.password)
        #expect(address.database == "keychain")
        #expect(address.tlsMode == .require)
    }

    @Test func tcpDefaultsArePort5432VerifyFullAndTheUserAsDatabase() throws {
        let address = try SyncServerAddress(parsing: "postgresql://sync@db.example.com")
        #expect(address.endpoints == [.tcp(host: "db.example.com", port: 5432)])
        #expect(address.database == "sync")
        #expect(address.tlsMode == .verifyFull, "without sslmode a TCP connection checks the server's certificate")
        #expect(address.password == nil)
    }

    @Test func percentEscapesAndIPv6AndRootCertificate() throws {
        let address = try SyncServerAddress(
            parsing: "postgres://me%40home:p%40ss@[::1]:5433/my%20db?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(address.endpoints == [.tcp(host: "::1", port: 5433)])
        #expect(address.user == "me@home")
        #expect(address.password == "p@ss")
        #expect(address.database == "my db")
        #expect(address.rootCertificatePath == "/etc/ca.pem")
    }

    @Test func unixSocketFolderLikeLibpq() throws {
        let address = try SyncServerAddress(parsing: "postgres:///keychain?host=/run/postgresql")
        #expect(address.endpoints == [.unixSocket(folder: "/run/postgresql", port: 5432)])
        #expect(address.database == "keychain")
        #expect(address.tlsMode == .disable)
        let withPort = try SyncServerAddress(parsing: "postgres://sync@:5999/keychain?host=/tmp/pg")
        #expect(withPort.endpoints == [.unixSocket(folder: "/tmp/pg", port: 5999)])
        #expect(withPort.user == "sync")
    }

    /// libpq's list of hosts (a primary and its standbys): each with its own port or 5432,
    /// IPv6 in brackets, kept in order (the order connections try them), and written back the
    /// same way by the description.
    @Test func severalHostsAreKeptInOrderWithTheirPorts() throws {
        let address = try SyncServerAddress(
            parsing: "postgres://sync:\(Self.password)@db1.example.com:5433,db2.example.com,[::1]:6000/keychain?sslmode=require")
        #expect(address.endpoints == [
            .tcp(host: "db1.example.com", port: 5433), .tcp(host: "db2.example.com", port: 5432), .tcp(host: "::1", port: 6000),
        ])
        #expect(address.description == "postgres://sync@db1.example.com:5433,db2.example.com,[::1]:6000/keychain?sslmode=require")
        #expect(try SyncServerAddress(parsing: address.description).endpoints == address.endpoints)
    }

    /// Each bad address names what is wrong, and no error shows the password it contained.
    @Test(arguments: [
        ("mysql://sync:\(password)@host/db", "scheme"),
        ("sync:\(password)@host/db", "postgres://"),
        ("postgres://sync:\(password)@host:99999/db", "port"),
        ("postgres://sync:\(password)@host:http/db", "port"),
        ("postgres://sync:\(password)@host/db?sslmode=prefer", "sslmode"),
        ("postgres://sync:\(password)@host/db?sslmode=allow", "sslmode"),
        ("postgres://sync:\(password)@host/db?application_name=x", "unknown parameter"),
        ("postgres://sync:\(password)@host/db?sslmode=require&sslrootcert=/ca.pem", "sslrootcert"),
        ("postgres://sync:\(password)@host/db?sslrootcert=ca.pem", "absolute"),
        ("postgres://sync:\(password)@host1,,host2/db", "empty entry"),
        ("postgres://sync:\(password)@host1,host2:0/db", "port"),
        ("postgres://sync:\(password)@host1,:5433/db", "no host"),
        ("postgres://sync:\(password)@:5432,:5433/db?host=/run/postgresql", "one socket folder"),
        ("postgres://sync:\(password)@/db?host=/a,/b", "one socket folder"),
        ("postgres://sync:\(password)@::1/db", "brackets"),
        ("postgres://sync:\(password)@/db", "no host"),
        ("postgres://sync:\(password)@host/db?host=/run/postgresql", "not both"),
        ("postgres://sync:\(password)@/db?host=relative", "absolute path"),
        ("postgres://sync:\(password)@/db?host=/run&sslmode=require", "Unix socket"),
        ("postgres://sync:\(password)@host/db?sslmode=disable&sslmode=require", "twice"),
        ("postgres://sync:\(password)@host/a/b", "must not contain /"),
        ("postgres://sync:\(password)@host/db#frag", "fragment"),
        ("postgres://sync:\(password)@host/d b", "spaces"),
        ("postgres://sync:\(password)%zz@host/db", "percent-escape"),
    ])
    func badAddressesGiveClearErrorsWithoutThePassword(address: String, reason: String) {
        do {
            let parsed = try SyncServerAddress(parsing: address)
            Issue.record("parsed \(parsed) without error")
        } catch {
            guard case .badAddress = error else {
                Issue.record("\(error) is not badAddress")
                return
            }
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(!error.description.contains(Self.password))
        }
    }

    /// The password stays out of the description, `String(reflecting:)` and `dump`: an
    /// address logged or printed by mistake does not leak it.
    @Test func descriptionAndReflectionNeverShowThePassword() throws {
        let address = try SyncServerAddress(parsing: "postgres://sync:\(Self.password)@db.example.com/keychain?sslmode=require")
        #expect(address.description == "postgres://sync@db.example.com/keychain?sslmode=require")
        #expect(!String(reflecting: address).contains(Self.password))
        var dumped = ""
        dump(address, to: &dumped)
        #expect(!dumped.contains(Self.password))
        #expect(!"\(address)".contains(Self.password))
        // The description parses back to the same address, less the password.
        let reparsed = try SyncServerAddress(parsing: address.description)
        #expect(reparsed.endpoints == address.endpoints && reparsed.database == address.database && reparsed.tlsMode == address.tlsMode)
    }

    /// A CA file that is not there is a clear error at connect, before any network.
    @Test func missingRootCertificateIsABadAddress() async throws {
        let address = try SyncServerAddress(
            parsing: "postgres://sync:\(Self.password)@localhost:1/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")
        await #expect(throws: SyncServerError.badAddress("cannot read the CA certificates in sslrootcert /nonexistent/ca.pem")) {
            _ = try await SyncServer.connect(address, logger: .init(label: "test"))
        }
    }
}
