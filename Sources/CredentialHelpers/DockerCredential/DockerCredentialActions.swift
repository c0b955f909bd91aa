import CredentialHelperSupport
import Foundation
import Security

/// Docker's credential-helper actions on internet passwords of the default keychain, stored
/// as docker-credential-helpers' osxkeychain helper stores them: server, protocol, port and
/// path from the registry's URL, the username as the account, and the label
/// "Docker Credentials", by which `list` finds them.
enum DockerCredentialActions {
    /// The label of Docker's items (docker-credential-helpers' `CredsLabel`).
    static let label = "Docker Credentials"

    /// The message Docker recognizes as "no credentials", which it does not report as an error.
    static let notFound = "credentials not found in native keychain"

    /// `store`: the credentials of `input`'s JSON, replacing those kept for its server URL.
    static func store(_ input: Data) throws(HelperFailure) {
        let credentials = try DockerCredentials(parsing: input)
        guard let serverURL = credentials.serverURL, !serverURL.isEmpty else {
            throw HelperFailure("no credentials server URL")
        }
        guard let username = credentials.username, !username.isEmpty else {
            throw HelperFailure("no credentials username")
        }
        let server = try RegistryServer(parsing: serverURL)
        let data = Data((credentials.secret ?? "").utf8)
        let existing = try server.items(withData: false)
        // One call that changes an item whole, rather than the osxkeychain helper's delete
        // then add, which loses the old credentials when the add fails.
        if let item = existing.first(where: { $0.account == username }) ?? existing.first {
            try InternetPasswords.update(item.reference, with: [
                kSecAttrAccount as String: username, kSecAttrLabel as String: label, kSecValueData as String: data,
            ])
            return
        }
        var attributes = server.attributes
        attributes[kSecAttrAccount as String] = username
        attributes[kSecAttrLabel as String] = label
        guard try InternetPasswords.add(attributes, data: data) else {
            throw .status(errSecDuplicateItem, during: "SecItemAdd")
        }
    }

    /// `get`: the credentials kept for the server URL of `input`, as one line of JSON.
    static func get(_ input: Data) throws(HelperFailure) -> Data {
        let serverURL = try serverURL(in: input)
        guard let item = try RegistryServer(parsing: serverURL).items(withData: true).first,
              let data = item.data
        else { throw HelperFailure(notFound) }
        guard let secret = String(data: data, encoding: .utf8) else {
            throw HelperFailure("the stored secret for \(serverURL) is not UTF-8 text")
        }
        return try DockerCredentials.answer(serverURL: serverURL, username: item.account, secret: secret)
    }

    /// `erase`: deletes the credentials kept for the server URL of `input`.
    static func erase(_ input: Data) throws(HelperFailure) {
        let items = try RegistryServer(parsing: try serverURL(in: input)).items(withData: false)
        guard !items.isEmpty else { throw HelperFailure(notFound) }
        for item in items { try InternetPasswords.delete(item.reference) }
    }

    /// `list`: the URL and username of every item labelled as Docker's, as a JSON object.
    static func list() throws(HelperFailure) -> Data {
        var listed: [String: String] = [:]
        for item in try InternetPasswords.find([kSecAttrLabel as String: label], withData: false) {
            guard let url = RegistryServer.url(of: item.attributes) else { continue }
            listed[url] = item.account
        }
        return try DockerJSON.line(listed)
    }

    /// The server URL that `get` and `erase` read: the input, without the spaces and line
    /// ends around it.
    private static func serverURL(in input: Data) throws(HelperFailure) -> String {
        guard let text = String(data: input, encoding: .utf8) else {
            throw HelperFailure("the server URL is not UTF-8 text")
        }
        let serverURL = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !serverURL.isEmpty else { throw HelperFailure("no credentials server URL") }
        return serverURL
    }
}
