import Foundation

/// Where the sync server is and how to reach it, parsed from a libpq-style URL.
///
/// Accepted forms:
/// - `postgres://user[:password]@host[:port]/database?sslmode=disable|require|verify-full&sslrootcert=PATH`
///   (`postgresql://` too; IPv6 addresses in brackets; user, password and database
///   percent-decoded). Over TCP the default is `sslmode=verify-full` against the system's
///   CAs, or the CAs of `sslrootcert` (which only `verify-full` takes): `require` encrypts
///   without checking who answers.
/// - `postgres://user@/database?host=/run/postgresql`, or `postgres:///database?host=...`:
///   the Unix socket `.s.PGSQL.<port>` in that folder, as libpq finds it; no TLS.
/// - `postgres://user@host1:5432,host2:5433/database?...`: several hosts (a primary and its
///   standbys under streaming replication), as libpq takes them. Each connection tries them
///   in order and uses the first that accepts writes (libpq's `target_session_attrs=read-write`);
///   after a failure, the next connection starts again from the first. A standby promoted
///   after its primary failed is thus found without changing the address. What sync needs of
///   such a setup: every call goes to the one primary, which gives read-your-writes; and for
///   no acknowledged record to be lost at failover, synchronous replication
///   (`synchronous_standby_names`). Under asynchronous replication a record the primary
///   acknowledged but had not shipped is lost with it: members do not send it again (a member
///   forgets a change once the server acknowledged it), so the others get the item only when
///   it next changes.
///
/// The user defaults to the current user's name, the database to the user, each port to
/// 5432. Anything else (another scheme, several socket folders, an unknown parameter, a bad port) is
/// a ``SyncServerError/badAddress(_:)`` that says what is wrong. Neither ``description``
/// nor the errors nor a reflection of the value ever show the password.
package struct SyncServerAddress: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// How the server is reached.
    package enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The folder holding the socket file `.s.PGSQL.<port>`.
        case unixSocket(folder: String, port: Int)
    }

    /// libpq's `sslmode` values that this client implements.
    package enum TLSMode: String, Sendable, Equatable {
        /// No TLS.
        case disable
        /// TLS, without checking the server's certificate.
        case require
        /// TLS with the certificate checked against trusted CAs and the host name.
        case verifyFull = "verify-full"
    }

    /// Where the server is, in the order they are tried: one endpoint, or several TCP hosts
    /// (a primary and its standbys) of which the connection uses the first that is a primary.
    /// Never empty.
    package let endpoints: [Endpoint]
    package let user: String
    package let password: String?
    package let database: String
    package let tlsMode: TLSMode
    /// A PEM file of the CAs to trust (`sslrootcert`); nil for the system's.
    package let rootCertificatePath: String?

    package static let defaultPort = 5432

    package init(parsing text: String) throws(SyncServerError) {
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { throw .badAddress("it contains spaces or control characters") }
        var rest = Substring(text)
        guard let schemeEnd = rest.range(of: "://") else {
            throw .badAddress("it must start with postgres:// (for example postgres://user@host/database)")
        }
        let scheme = rest[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .badAddress("the scheme must be postgres:// or postgresql://, not \(Self.quoted(scheme))")
        }
        rest = rest[schemeEnd.upperBound...]
        guard !rest.contains("#") else { throw .badAddress("it must not have a fragment (#...)") }

        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var authority = rest
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            path = rest[rest.index(after: slash)...]
        }

        // The user information ends at the last "@": a password may contain "@" unencoded.
        var user: String?
        var password: String?
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decoded(userInfo[..<colon], what: "user name")
                password = try Self.decoded(userInfo[userInfo.index(after: colon)...], what: "password")
            } else {
                user = try Self.decoded(userInfo, what: "user name")
            }
            if user?.isEmpty == true { user = nil }
        }

        // libpq's list of hosts, tried in order: `host1:5432,host2:5433` (IPv6 in brackets).
        let hosts = try hostPort.isEmpty ? [(host: "", port: Self.defaultPort)] : Self.hostList(hostPort)

        guard !path.contains("/") else { throw .badAddress("the database name must not contain /") }
        var database = try Self.decoded(path, what: "database name")

        var tlsMode: TLSMode?
        var rootCertificatePath: String?
        var socketFolder: String?
        var seen: Set<String> = []
        for parameter in query.split(separator: "&") {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decoded(pair[0], what: "parameter name")
            let value = try pair.count == 2 ? Self.decoded(pair[1], what: "parameter \(key)") : ""
            guard seen.insert(key).inserted else { throw .badAddress("the parameter \(key) is given twice") }
            switch key {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw .badAddress("sslmode must be disable, require or verify-full, not \(Self.quoted(value))")
                }
                tlsMode = mode
            case "sslrootcert":
                guard value.hasPrefix("/") else { throw .badAddress("sslrootcert must be an absolute path") }
                rootCertificatePath = value
            case "host":
                guard value.hasPrefix("/") else {
                    throw .badAddress("the host parameter must be the absolute path of a socket folder")
                }
                guard !value.contains(",") else { throw .badAddress("the host parameter names one socket folder, not several") }
                socketFolder = value
            default:
                throw .badAddress("unknown parameter \(Self.quoted(key)) (known: sslmode, sslrootcert, host)")
            }
        }

        if let socketFolder {
            guard hosts.count == 1, let port = hosts.first?.port else {
                throw .badAddress("a Unix socket address names one socket folder, not several hosts")
            }
            guard hosts[0].host.isEmpty else { throw .badAddress("give either a host name or a socket folder (host=), not both") }
            guard tlsMode == nil || tlsMode == .disable, rootCertificatePath == nil else {
                throw .badAddress("sslmode and sslrootcert apply to TCP connections, not to a Unix socket")
            }
            endpoints = [.unixSocket(folder: socketFolder, port: port)]
            self.tlsMode = .disable
        } else {
            guard hosts.allSatisfy({ !$0.host.isEmpty }) else {
                throw .badAddress("it names no host: give one (postgres://user@host/database) or a socket folder (?host=/run/postgresql)")
            }
            endpoints = hosts.map { .tcp(host: $0.host, port: $0.port) }
            let mode = tlsMode ?? .verifyFull
            guard rootCertificatePath == nil || mode == .verifyFull else {
                throw .badAddress("sslrootcert is only used with sslmode=verify-full")
            }
            self.tlsMode = mode
        }
        guard let resolvedUser = user ?? Self.currentUserName() else { throw .badAddress("it names no user") }
        if database.isEmpty { database = resolvedUser }
        self.user = resolvedUser
        self.password = password
        self.database = database
        self.rootCertificatePath = rootCertificatePath
    }

    /// The address without its password.
    package var description: String {
        var text = "postgres://\(Self.encoded(user))@"
        var parameters: [String] = []
        var hosts: [String] = []
        for endpoint in endpoints {
            switch endpoint {
            case .tcp(let host, let port):
                hosts.append((host.contains(":") ? "[\(host)]" : host) + (port != Self.defaultPort ? ":\(port)" : ""))
            case .unixSocket(let folder, let port):
                hosts.append(port != Self.defaultPort ? ":\(port)" : "")
                parameters.append("host=\(folder)")
            }
        }
        text += hosts.joined(separator: ",")
        if case .tcp = endpoints.first {
            parameters.append("sslmode=\(tlsMode.rawValue)")
            if let rootCertificatePath { parameters.append("sslrootcert=\(rootCertificatePath)") }
        }
        return text + "/\(Self.encoded(database))?" + parameters.joined(separator: "&")
    }

    /// A reflection (`dump`, debuggers) shows the description, never the stored password.
    package var customMirror: Mirror {
        Mirror(self, children: ["address": description, "password": password == nil ? "none" : "<redacted>"])
    }

    /// The hosts of a comma-separated list, each with its port (5432 when it has none); an
    /// empty host (the socket form's `@:5999`) is kept for the caller to judge.
    private static func hostList(_ text: Substring) throws(SyncServerError) -> [(host: String, port: Int)] {
        var hosts: [(host: String, port: Int)] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !entry.isEmpty || !text.contains(",") else { throw .badAddress("its list of hosts has an empty entry") }
            var host = ""
            var portText: Substring?
            if entry.hasPrefix("[") {
                guard let close = entry.firstIndex(of: "]") else { throw .badAddress("an IPv6 address lacks its closing ]") }
                host = String(entry[entry.index(after: entry.startIndex)..<close])
                let after = entry[entry.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { throw .badAddress("unexpected text after the IPv6 address") }
                    portText = after.dropFirst()
                }
            } else {
                let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count <= 2 else { throw .badAddress("an IPv6 address must be written in brackets, like [::1]") }
                host = try decoded(parts[0], what: "host")
                if parts.count == 2 { portText = parts[1] }
            }
            var port = defaultPort
            if let portText {
                guard let value = Int(portText), (1...65_535).contains(value), portText.allSatisfy(\.isASCII) else {
                    throw .badAddress("the port must be a number from 1 to 65535, not \(quoted(String(portText)))")
                }
                port = value
            }
            hosts.append((host, port))
        }
        guard hosts.count <= maximumHosts else { throw .badAddress("it names more than \(maximumHosts) hosts") }
        return hosts
    }

    /// More hosts than any replicated setup has: a bound on the connection attempts of one call.
    package static let maximumHosts = 16

    /// Percent-decodes one component; a bad escape is an error naming the component only.
    private static func decoded(_ text: Substring, what: String) throws(SyncServerError) -> String {
        guard text.contains("%") else { return String(text) }
        guard let value = String(text).removingPercentEncoding else {
            throw .badAddress("the \(what) has a bad percent-escape (%XX)")
        }
        return value
    }

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? text
    }

    /// A piece of the address, shortened, for an error message (never the password).
    private static func quoted(_ text: String) -> String {
        "\"\(text.prefix(40))\(text.count > 40 ? "..." : "")\""
    }

    private static func currentUserName() -> String? {
        let name = ProcessInfo.processInfo.userName
        return name.isEmpty ? nil : name
    }
}
