import CredentialHelperSupport
import Foundation
import Security

/// git's three actions on internet passwords of the default keychain, with the attributes
/// git's osxkeychain helper gives them: server, protocol, port, path, account and the
/// default authentication type.
struct GitCredentialActions {
    let request: GitCredentialRequest

    /// The state this helper leaves in an answer to `get` when git can pass it back, so that
    /// the `store` git sends after using a credential it found here changes nothing.
    static let seenState = "keychain:seen=1"

    /// The attributes that the request names: what a search matches and an item is stored with.
    /// nil when the request names no host or a protocol this helper does not keep.
    private var attributes: [String: Any]? {
        guard let name = request.protocol, let code = GitProtocol.keychainCode(for: name),
              let host = request.host, !host.isEmpty
        else { return nil }
        var attributes: [String: Any] = [
            kSecAttrServer as String: host,
            kSecAttrProtocol as String: code,
            kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault,
        ]
        attributes[kSecAttrPort as String] = request.port.map { NSNumber(value: $0) }
        attributes[kSecAttrPath as String] = request.path
        attributes[kSecAttrAccount as String] = request.username
        return attributes
    }

    /// The answer to `get`: the first stored credential that matches and has not expired,
    /// as `key=value` lines; nothing when there is none. The port must be the request's
    /// own, as git matches the host with its port; a request without a path (no
    /// credential.useHttpPath) matches every path, as git's own helpers match.
    func get(now: Date = Date()) throws(HelperFailure) -> Data {
        guard let attributes else { return Data() }
        for item in try InternetPasswords.find(attributes) where item.has(port: request.port) {
            guard let data = item.data, let secret = StoredGitSecret(data: data) else {
                throw HelperFailure("the stored password for \(request.host ?? "") is not UTF-8 text")
            }
            if secret.isExpired(at: now) { continue }
            var answer = ""
            if request.username == nil { answer += "username=\(item.account)\n" }
            answer += "password=\(secret.password)\n"
            if let expiry = secret.passwordExpiry { answer += "password_expiry_utc=\(expiry)\n" }
            if let token = secret.oauthRefreshToken { answer += "oauth_refresh_token=\(token)\n" }
            if request.capabilities.contains("state") {
                answer += "capability[]=state\nstate[]=\(Self.seenState)\n"
            }
            return Data(answer.utf8)
        }
        return Data()
    }

    /// `store`: adds the credential, or replaces the secret of the item with the same server,
    /// protocol, port, path and account. A credential git found here is left as it is.
    func store() throws(HelperFailure) {
        if request.states.contains(Self.seenState) { return }
        guard let attributes, let username = request.username, let password = request.password else {
            throw HelperFailure("store needs a protocol this helper keeps (https, http, imap, imaps, ftp, ftps, smtp), "
                                + "a host, a username and a password; nothing was stored")
        }
        let secret = StoredGitSecret(password: password, passwordExpiry: request.passwordExpiry,
                                     oauthRefreshToken: request.oauthRefreshToken)
        if try InternetPasswords.add(attributes, data: secret.data) { return }
        // The search also matches items with a path or port when the request names none:
        // only the item whose key is the request's own is replaced.
        guard let existing = try InternetPasswords.find(attributes, withData: false).first(where: { item in
            item.account == username && item.has(port: request.port, path: request.path)
        }) else { throw .status(errSecDuplicateItem, during: "SecItemAdd") }
        try InternetPasswords.update(existing.reference, with: [kSecValueData as String: secret.data])
    }

    /// `erase`: deletes the items that match the request, of its port alone as `get`; when
    /// git sends a password, only those whose password is that one, as git's osxkeychain
    /// helper does.
    func erase() throws(HelperFailure) {
        guard let attributes else {
            throw HelperFailure("erase needs a protocol this helper keeps and a host; nothing was erased")
        }
        for item in try InternetPasswords.find(attributes) where item.has(port: request.port) {
            if let password = request.password {
                guard let data = item.data, let secret = StoredGitSecret(data: data), secret.password == password else { continue }
            }
            try InternetPasswords.delete(item.reference)
        }
    }
}
