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
///
/// The user defaults to the current user's name, the database to the user, the port to
/// 5432. Anything else (another scheme, several hosts, an unknown parameter, a bad port) is
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

    package let endpoint: Endpoint
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

        var host = ""
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw .badAddress("an IPv6 address lacks its closing ]") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badAddress("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else {
            guard !hostPort.contains(",") else { throw .badAddress("it names several hosts; give one") }
            let parts = hostPort.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw .badAddress("an IPv6 address must be written in brackets, like [::1]") }
            host = try Self.decoded(parts[0], what: "host")
            if parts.count == 2 { portText = parts[1] }
        }
        var port = Self.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value), portText.allSatisfy(\.isASCII) else {
                throw .badAddress("the port must be a number from 1 to 65535, not \(Self.quoted(String(portText)))")
            }
            port = value
        }

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
                socketFolder = value
            default:
                throw .badAddress("unknown parameter \(Self.quoted(key)) (known: sslmode, sslrootcert, host)")
            }
        }

        if let socketFolder {
            guard host.isEmpty else { throw .badAddress("give either a host name or a socket folder (host=), not both") }
            guard tlsMode == nil || tlsMode == .disable, rootCertificatePath == nil else {
                throw .badAddress("sslmode and sslrootcert apply to TCP connections, not to a Unix socket")
            }
            endpoint = .unixSocket(folder: socketFolder, port: port)
            self.tlsMode = .disable
        } else {
            guard !host.isEmpty else {
                throw .badAddress("it names no host: give one (postgres://user@host/database) or a socket folder (?host=/run/postgresql)")
            }
            endpoint = .tcp(host: host, port: port)
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
        switch endpoint {
        case .tcp(let host, let port):
            text += host.contains(":") ? "[\(host)]" : host
            if port != Self.defaultPort { text += ":\(port)" }
            parameters.append("sslmode=\(tlsMode.rawValue)")
            if let rootCertificatePath { parameters.append("sslrootcert=\(rootCertificatePath)") }
        case .unixSocket(let folder, let port):
            if port != Self.defaultPort { text += ":\(port)" }
            parameters.append("host=\(folder)")
        }
        return text + "/\(Self.encoded(database))?" + parameters.joined(separator: "&")
    }

    /// A reflection (`dump`, debuggers) shows the description, never the stored password.
    package var customMirror: Mirror {
        Mirror(self, children: ["address": description, "password": password == nil ? "none" : "<redacted>"])
    }

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
