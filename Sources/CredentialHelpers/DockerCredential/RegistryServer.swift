import CredentialHelperSupport
import Foundation
import Security

/// A registry's server URL as docker-credential-helpers' osxkeychain helper reads it: a
/// missing scheme is https, only http and https are allowed, the query is dropped, and the
/// host, port and path become the item's server, port and path.
struct RegistryServer {
    let isHTTP: Bool
    let host: String
    let port: Int?
    let path: String

    init(parsing text: String) throws(HelperFailure) {
        // Without a scheme, a URL parser reads the host as a path.
        let withScheme = text.contains("://") || text.hasPrefix("//") ? text : "//" + text
        guard let components = URLComponents(string: withScheme) else {
            throw HelperFailure("the server URL is not a URL")
        }
        let scheme = components.scheme?.lowercased()
        guard scheme == nil || scheme == "https" || scheme == "http" else {
            throw HelperFailure("unsupported scheme: \(components.scheme ?? "")")
        }
        guard let host = components.host, !host.isEmpty else { throw HelperFailure("no hostname in URL") }
        if let port = components.port, !(0...65535).contains(port) {
            throw HelperFailure("the port of the server URL is not a number from 0 to 65535")
        }
        isHTTP = scheme == "http"
        self.host = host
        port = components.port.flatMap { $0 == 0 ? nil : $0 }
        path = components.path
    }

    /// The items kept for this server: its attributes' matches with exactly its port and
    /// path, so that `registry.example.com` never answers or replaces the credentials of
    /// `registry.example.com:5000`.
    func items(withData: Bool) throws(HelperFailure) -> [FoundPassword] {
        try InternetPasswords.find(attributes, withData: withData).filter { $0.has(port: port, path: path) }
    }

    /// What an item for this server is stored with: as the osxkeychain helper, no port or
    /// path when the URL has none.
    var attributes: [String: Any] {
        var attributes: [String: Any] = [
            kSecAttrServer as String: host,
            kSecAttrProtocol as String: (isHTTP ? kSecAttrProtocolHTTP : kSecAttrProtocolHTTPS) as String,
        ]
        attributes[kSecAttrPort as String] = port.map { NSNumber(value: $0) }
        if !path.isEmpty { attributes[kSecAttrPath as String] = path }
        return attributes
    }

    /// The URL `list` shows for an item's attributes: scheme, server, port and path; nil for
    /// an item that names no server or a protocol other than http and https.
    static func url(of attributes: [String: Any]) -> String? {
        guard let server = attributes[kSecAttrServer as String] as? String, !server.isEmpty else { return nil }
        let code = attributes[kSecAttrProtocol as String] as? String
        let scheme: String
        if code == kSecAttrProtocolHTTPS as String {
            scheme = "https"
        } else if code == kSecAttrProtocolHTTP as String {
            scheme = "http"
        } else {
            return nil
        }
        var url = scheme + "://" + (server.contains(":") ? "[\(server)]" : server)
        if let port = (attributes[kSecAttrPort as String] as? NSNumber)?.intValue, port != 0 { url += ":\(port)" }
        url += attributes[kSecAttrPath as String] as? String ?? ""
        return url
    }
}
