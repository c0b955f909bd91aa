import CredentialHelperSupport
import Foundation

/// The JSON object Docker sends to `store` and reads from `get`.
struct DockerCredentials: Decodable {
    var serverURL: String?
    var username: String?
    var secret: String?

    private enum CodingKeys: String, CodingKey {
        case serverURL = "ServerURL", username = "Username", secret = "Secret"
    }

    /// Parses `store`'s input. The messages name fields, never values, which may be secrets.
    init(parsing input: Data) throws(HelperFailure) {
        do {
            self = try JSONDecoder().decode(DockerCredentials.self, from: input)
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            throw HelperFailure("\(context.codingPath[0].stringValue) is not a string")
        } catch {
            throw HelperFailure("the credentials are not JSON of the form {\"ServerURL\":…,\"Username\":…,\"Secret\":…}")
        }
    }

    /// `get`'s answer, one line of JSON.
    static func answer(serverURL: String, username: String, secret: String) throws(HelperFailure) -> Data {
        try DockerJSON.line(["ServerURL": serverURL, "Username": username, "Secret": secret])
    }
}

/// One line of JSON, as Go's encoder writes it: slashes unescaped, a newline at the end.
enum DockerJSON {
    static func line(_ object: [String: String]) throws(HelperFailure) -> Data {
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { throw HelperFailure("cannot write the answer as JSON") }
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
