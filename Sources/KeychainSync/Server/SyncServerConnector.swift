import Foundation
import PostgresNIO

/// Opens connections to one server address: the same configuration (TLS context included,
/// made once) for the actor's connection and for each listening connection.
struct SyncServerConnector: Sendable {
    /// How long a connection attempt may take before it is ``SyncServerError/unreachable(_:)``.
    static let connectTimeout: TimeAmount = .seconds(5)

    let address: SyncServerAddress
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger

    init(address: SyncServerAddress, logger: Logger) throws(SyncServerError) {
        self.address = address
        self.logger = logger
        var configuration: PostgresConnection.Configuration
        switch address.endpoint {
        case .tcp(let host, let port):
            configuration = PostgresConnection.Configuration(
                host: host, port: port, username: address.user, password: address.password,
                database: address.database, tls: try Self.tls(for: address))
        case .unixSocket(let folder, let port):
            configuration = PostgresConnection.Configuration(
                unixSocketPath: folder + "/.s.PGSQL.\(port)", username: address.user, password: address.password,
                database: address.database)
        }
        configuration.options.connectTimeout = Self.connectTimeout
        self.configuration = configuration
    }

    /// How long connecting, TLS and authentication may take together: a server that accepts
    /// the TCP connection and never answers is unreachable after that.
    static let handshakeTimeout: Duration = .seconds(10)

    /// A new connection; every failure is a ``SyncServerError``.
    func connect() async throws(SyncServerError) -> PostgresConnection {
        let configuration = self.configuration, logger = self.logger
        do {
            // Cancelled at the deadline, postgres-nio abandons the attempt and its channel.
            return try await withTimeout(Self.handshakeTimeout) {
                try await PostgresConnection.connect(
                    configuration: configuration, id: Int.random(in: 1...Int.max), logger: logger)
            }
        } catch {
            throw SyncServerError(error)
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
