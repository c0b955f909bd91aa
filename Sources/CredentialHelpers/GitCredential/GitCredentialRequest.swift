import CredentialHelperSupport
import Foundation

/// What git sends a credential helper: `key=value` lines up to a blank line or the end of
/// the input (git's "credential helper protocol").
struct GitCredentialRequest {
    var `protocol`: String?
    var host: String?
    var port: Int?
    var path: String?
    var username: String?
    var password: String?
    /// `password_expiry_utc`: when the password stops being valid, in seconds since 1970 (git 2.41).
    var passwordExpiry: UInt64?
    /// `oauth_refresh_token`, which git asks to keep beside the password (git 2.41).
    var oauthRefreshToken: String?
    /// The `capability[]` values git announced, such as `state` (git 2.46).
    var capabilities: Set<String> = []
    /// The `state[]` values a helper left in an earlier answer, which git passes back.
    var states: Set<String> = []

    /// Whether `input` already holds a whole request: a blank line ends it.
    static func isComplete(_ input: Data) -> Bool {
        input.first == UInt8(ascii: "\n") || input.firstRange(of: Data("\n\n".utf8)) != nil
    }

    /// Parses the lines of `input`; lines of keys it does not know are ignored, as git asks
    /// of helpers so that newer git can send more. Messages name lines by number, never by
    /// their text, which may be a secret.
    init(parsing input: Data) throws(HelperFailure) {
        var number = 0
        for rawLine in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if rawLine.isEmpty { break }
            guard !rawLine.contains(0) else { throw HelperFailure("bad input: line \(number) holds a NUL byte") }
            guard let line = String(validating: rawLine, as: UTF8.self) else {
                throw HelperFailure("bad input: line \(number) is not UTF-8 text")
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw HelperFailure("bad input: line \(number) is not of the form key=value")
            }
            let value = String(line[line.index(after: equals)...])
            switch line[..<equals] {
            case "protocol": self.protocol = value
            case "host": (host, port) = try Self.hostAndPort(value, line: number)
            case "path": path = value
            case "username": username = value
            case "password": password = value
            case "password_expiry_utc":
                guard let expiry = UInt64(value) else {
                    throw HelperFailure("bad input: password_expiry_utc on line \(number) is not a number of seconds")
                }
                passwordExpiry = expiry
            case "oauth_refresh_token": oauthRefreshToken = value
            case "capability[]": capabilities.insert(value)
            case "state[]": states.insert(value)
            default: break
            }
        }
    }

    /// Splits `host[:port]` (an IPv6 address in brackets, as in a URL); the port must be a
    /// number from 1 to 65535.
    private static func hostAndPort(_ value: String, line: Int) throws(HelperFailure) -> (String, Int?) {
        let portSeparator: String.Index?
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else {
                throw HelperFailure("bad input: the host on line \(line) opens a [ that it does not close")
            }
            let after = value.index(after: close)
            guard after == value.endIndex || value[after] == ":" else {
                throw HelperFailure("bad input: the host on line \(line) has text after its ]")
            }
            portSeparator = after == value.endIndex ? nil : after
        } else {
            portSeparator = value.firstIndex(of: ":")
        }
        guard let portSeparator else { return (value, nil) }
        let portText = value[value.index(after: portSeparator)...]
        guard portText.allSatisfy(\.isASCII), let port = Int(portText), (1...65535).contains(port) else {
            throw HelperFailure("bad input: the port of the host on line \(line) is not a number from 1 to 65535")
        }
        return (String(value[..<portSeparator]), port)
    }
}
