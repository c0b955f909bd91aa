import Foundation
import PostgresNIO

/// Opens connections to one server address: the same configurations (TLS context included,
/// made once) for the actor's connection and for each listening connection.
///
/// An address may name several hosts (a primary and its streaming-replication standbys).
/// Each connection tries them in order and keeps the first that is a primary
/// (`pg_is_in_recovery()` false, libpq's `target_session_attrs=read-write`); a standby, which
/// refuses writes and never delivers NOTIFY, is closed and the next host tried. Every new
/// connection starts again from the first host, so after a failover the promoted standby is
/// found, and a primary that comes back is used again.
struct SyncServerConnector: Sendable {
    /// How long a connection attempt may take before it is ``SyncServerError/unreachable(_:)``.
    static let connectTimeout: TimeAmount = .seconds(5)

    let address: SyncServerAddress
    /// One configuration per endpoint, in the address's order, each with its name for errors.
    private let configurations: [(name: String, configuration: PostgresConnection.Configuration)]
    private let logger: Logger

    init(address: SyncServerAddress, logger: Logger) throws(SyncServerError) {
        self.address = address
        self.logger = logger
        // One TLS context serves every host: the certificate is checked against each host's name.
        let tls = try Self.tls(for: address)
        configurations = address.endpoints.map { endpoint in
            var configuration: PostgresConnection.Configuration
            let name: String
            switch endpoint {
            case .tcp(let host, let port):
                configuration = PostgresConnection.Configuration(
                    host: host, port: port, username: address.user, password: address.password,
                    database: address.database, tls: tls)
                name = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
            case .unixSocket(let folder, let port):
                let path = folder + "/.s.PGSQL.\(port)"
                configuration = PostgresConnection.Configuration(
                    unixSocketPath: path, username: address.user, password: address.password,
                    database: address.database)
                name = path
            }
            configuration.options.connectTimeout = Self.connectTimeout
            return (name, configuration)
        }
    }

    /// How long connecting, TLS and authentication may take together: a server that accepts
    /// the TCP connection and never answers is unreachable after that.
    static let handshakeTimeout: Duration = .seconds(10)

    /// A new connection to the first host that is a primary; every failure is a
    /// ``SyncServerError``. With several hosts and none usable, the error names each host and
    /// why it was passed over.
    func connect() async throws(SyncServerError) -> PostgresConnection {
        var reasons: [String] = []
        var lastFailure: SyncServerError?
        for (name, configuration) in configurations {
            do {
                return try await connectToPrimary(configuration)
            } catch {
                // Only this host's problem: a wrong password or a TLS failure would repeat on
                // the others, but each says so itself.
                lastFailure = error
                reasons.append("\(name): \(Self.reason(error))")
            }
        }
        if configurations.count == 1, let lastFailure { throw lastFailure }
        throw .unreachable("no host is a primary that accepts writes (\(reasons.joined(separator: "; ")))")
    }

    private func connectToPrimary(_ configuration: PostgresConnection.Configuration) async throws(SyncServerError) -> PostgresConnection {
        let logger = self.logger
        let connection: PostgresConnection
        do {
            // At the deadline the attempt is cancelled and not waited for; a connection it still
            // makes later is closed.
            connection = try await withTimeout(Self.handshakeTimeout, discardLate: { try? await $0.close() }) {
                try await PostgresConnection.connect(
                    configuration: configuration, id: Int.random(in: 1...Int.max), logger: logger)
            }
        } catch {
            throw SyncServerError(error)
        }
        let isStandby: Bool
        do {
            isStandby = try await withTimeout(Self.handshakeTimeout, onTimeout: { let _: EventLoopFuture<Void> = connection.close() }) {
                try await connection.query("SELECT pg_is_in_recovery()", logger: logger).collect().first?.decode(Bool.self) ?? true
            }
        } catch {
            try? await connection.close()
            throw SyncServerError(error)
        }
        guard !isStandby else {
            try? await connection.close()
            throw .unreachable(Self.standbyReason)
        }
        return connection
    }

    static let standbyReason = "it is a read-only standby"

    /// A host's failure without the generic prefix, for the list of reasons.
    private static func reason(_ error: SyncServerError) -> String {
        switch error {
        case .unreachable(let reason): reason
        default: error.description
        }
    }

    /// NIOSSL's client context for the address's `sslmode`.
    private static func tls(for address: SyncServerAddress) throws(SyncServerError) -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch address.tlsMode {
        case .disable:
            return .disable
        case .require:
            // Encrypted, but anyone can answer: libpq's `require` without a root certificate.
            tls.certificateVerification = .none
        case .verifyFull:
            // The chain against the trusted CAs, and the host name (or IP address) against the
            // certificate's names: NIOSSL checks both.
            tls.certificateVerification = .fullVerification
            if let path = address.rootCertificatePath {
                let certificates: [NIOSSLCertificate]
                do {
                    certificates = try NIOSSLCertificate.fromPEMFile(path)
                } catch {
                    throw .badAddress("cannot read the CA certificates in sslrootcert \(path)")
                }
                guard !certificates.isEmpty else { throw .badAddress("sslrootcert \(path) holds no PEM certificate") }
                tls.trustRoots = .certificates(certificates)
            }
        }
        do {
            return .require(try NIOSSLContext(configuration: tls))
        } catch {
            throw .badAddress("cannot set up TLS: \(error)")
        }
    }
}
