// NIO, NIOSSL and Logger come re-exported with PostgresNIO.
import PostgresNIO

/// Why a call to the sync server failed.
///
/// Descriptions name the reason and never a password or stored bytes.
package enum SyncServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached, or the connection broke: the reason, without secrets.
    case unreachable(String)
    /// The server answered with an error (authentication, permissions, SQL state): its message.
    case rejected(String)
    /// What was to be created exists already (a group, a roster's epoch).
    case alreadyExists
    /// What was asked for is not on the server (a group).
    case notFound
    /// The server address could not be parsed: what is wrong with it.
    case badAddress(String)
    /// The server's schema is newer than this program knows.
    case schemaTooNew(found: Int, known: Int)
    /// An argument the server cannot store (a group id of the wrong size, a negative epoch).
    case invalidArgument(String)
    /// The connection was closed by ``SyncServer/close()``.
    case closed
    /// Records were appended to the group after the sequence a roster's publisher read to
    /// (``SyncServer/publishRoster(_:epoch:roster:wraps:readThrough:)``): read them and retry.
    case recordsAppended

    package var description: String {
        switch self {
        case .unreachable(let reason): "The sync server is unreachable: \(reason)"
        case .rejected(let message): "The sync server refused the request: \(message)"
        case .alreadyExists: "It already exists on the sync server."
        case .notFound: "It is not on the sync server."
        case .badAddress(let reason): "Bad sync server address: \(reason)"
        case .schemaTooNew(let found, let known):
            "The sync server's schema is version \(found); this program knows versions up to \(known). Update it."
        case .invalidArgument(let reason): "Invalid request to the sync server: \(reason)"
        case .closed: "The connection to the sync server was closed."
        case .recordsAppended: "Records reached the sync group after the ones read; read them and try again."
        }
    }
}

extension SyncServerError {
    /// What a failure of postgres-nio, NIO or NIOSSL means to a caller: the connection is
    /// gone (``unreachable(_:)``, and the caller may retry) or the server said no
    /// (``rejected(_:)``, or the constraint it names). Only the server's primary message and
    /// the kind of network failure are kept: postgres-nio's queries and bound values, and so
    /// stored bytes, never reach a description. The password is never part of any of them.
    init(_ error: any Error) {
        switch error {
        case let error as SyncServerError:
            self = error
        case let error as PostgresTransactionError:
            self = SyncServerError(error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError
                ?? SyncServerError.rejected("the transaction failed"))
        case let error as PSQLError:
            self = Self.fromPostgres(error)
        case let error as NIOSSLError:
            self = .unreachable("TLS failed: \(error)")
        case let error as NIOSSLExtraError:
            self = .unreachable("TLS failed: \(error)")
        case let error as BoringSSLError:
            self = .unreachable("TLS failed: \(error)")
        case let error as ChannelError:
            self = .unreachable("\(error)")
        case let error as IOError:
            self = .unreachable(error.description)
        case let error as NIOConnectionError:
            self = .unreachable("\(error)")
        default:
            self = .unreachable("\(type(of: error))")
        }
    }

    private static func fromPostgres(_ error: PSQLError) -> SyncServerError {
        if error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "an error without a message"
            switch state {
            case "23505": return .alreadyExists      // unique_violation
            case "23503": return .notFound           // foreign_key_violation: no such group or epoch
            // connection_exception, admin_shutdown, crash_shutdown, cannot_connect_now
            case _ where state.hasPrefix("08"), "57P01", "57P02", "57P03":
                return .unreachable(message)
            // read_only_sql_transaction: the primary became a standby since the connection was
            // made; dropping the connection makes the next call look for the primary again.
            case "25006":
                return .unreachable("the server became a read-only standby: \(message)")
            // disk_full: nothing was stored; the caller keeps what it sent and tries again later.
            case "53100":
                return .rejected("the server's disk is full: \(message)")
            default:
                return .rejected(message)
            }
        }
        let connectionLost: [PSQLError.Code] = [
            .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown,
            .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest,
        ]
        if connectionLost.contains(error.code) {
            if let underlying = error.underlying {
                let inner = SyncServerError(underlying)
                if case .unreachable = inner { return inner }
            }
            if error.code == .sslUnsupported { return .unreachable("the server does not accept TLS connections") }
            return .unreachable("the connection failed (\(error.code))")
        }
        return .rejected("\(error.code)")
    }

    /// Whether the connection must be dropped and made again on the next call.
    var isConnectionLost: Bool {
        if case .unreachable = self { return true }
        return false
    }
}
