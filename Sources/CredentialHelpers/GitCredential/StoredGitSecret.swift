import Foundation

/// The secret of an item this helper stores, laid out as git's osxkeychain helper lays it
/// out: the password, then `\npassword_expiry_utc=N` and `\noauth_refresh_token=T` when git
/// gave them, so that one keychain item keeps all three.
struct StoredGitSecret {
    var password: String
    var passwordExpiry: UInt64?
    var oauthRefreshToken: String?

    var data: Data {
        var text = password
        if let passwordExpiry { text += "\npassword_expiry_utc=\(passwordExpiry)" }
        if let oauthRefreshToken { text += "\noauth_refresh_token=\(oauthRefreshToken)" }
        return Data(text.utf8)
    }

    /// Reads a stored secret: the first line is the password, lines after it the kept
    /// fields; lines of other keys are ignored. nil when the secret is not UTF-8 text.
    init?(data: Data) {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        password = String(lines.removeFirst())
        for line in lines {
            if let value = line.value(of: "password_expiry_utc") {
                passwordExpiry = UInt64(value)
            } else if let value = line.value(of: "oauth_refresh_token") {
                oauthRefreshToken = String(value)
            }
        }
    }

    init(password: String, passwordExpiry: UInt64?, oauthRefreshToken: String?) {
        self.password = password
        self.passwordExpiry = passwordExpiry
        self.oauthRefreshToken = oauthRefreshToken
    }

    /// Whether the password has expired at `now`: git drops a password whose expiry is
    /// before the current time.
    func isExpired(at now: Date) -> Bool {
        guard let passwordExpiry else { return false }
        return Double(passwordExpiry) < now.timeIntervalSince1970
    }
}

extension Substring {
    /// The value of a `key=value` line with this key, or nil.
    fileprivate func value(of key: String) -> Substring? {
        guard hasPrefix(key + "=") else { return nil }
        return dropFirst(key.count + 1)
    }
}
