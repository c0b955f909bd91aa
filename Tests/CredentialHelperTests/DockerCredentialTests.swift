import Foundation
import Security
import Testing

/// docker-credential-keychain driven over standard input and output exactly as Docker's
/// client (docker-credential-helpers' `client` package) calls it: JSON to `store`, a server
/// URL to `get` and `erase`, nothing to `list`; answers and errors on standard output.
@Suite struct DockerCredentialTests {
    let user = CredentialHelperUser()
    static let group = "docker-credential-keychain"

    /// Docker's JSON for `store`.
    static func credentials(_ serverURL: String, _ username: String, _ secret: String) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: ["ServerURL": serverURL, "Username": username, "Secret": secret])
        return String(decoding: data, as: UTF8.self)
    }

    /// `get`'s answer, read as Docker reads it.
    func get(_ serverURL: String) throws -> (status: Int32, json: [String: String]?, output: String) {
        let outcome = try user.docker("get", serverURL)
        let json = try? JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: String]
        return (outcome.status, json, outcome.output)
    }

    @Test func getAnswersWhatStoreKept() throws {
        let stored = try user.docker("store", try Self.credentials("https://registry.example.com", "alice", "tok-1"))
        #expect(stored.status == 0)
        #expect(stored.output == "")
        let answer = try get("https://registry.example.com")
        #expect(answer.status == 0)
        #expect(answer.json == ["ServerURL": "https://registry.example.com", "Username": "alice", "Secret": "tok-1"])
        #expect(answer.output.hasSuffix("}\n"))
    }

    /// An empty secret comes back empty rather than failing the lookup.
    @Test func anEmptySecretRoundTrips() throws {
        let stored = try user.docker("store", try Self.credentials("https://registry.example.com", "alice", ""))
        #expect(stored.status == 0, "\(stored.output)")
        let answer = try get("https://registry.example.com")
        #expect(answer.status == 0, "\(answer.output)")
        #expect(answer.json == ["ServerURL": "https://registry.example.com", "Username": "alice", "Secret": ""])
    }

    /// The item is stored as docker-credential-helpers' osxkeychain helper stores it.
    @Test func theStoredItemIsAnInternetPasswordAsOsxkeychainStoresIt() throws {
        _ = try user.docker("store", try Self.credentials("registry.example.com:5000/v2/", "alice", "tok-1"))
        let items = try user.storedItems(group: Self.group)
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.text(kSecAttrLabel) == "Docker Credentials")
        #expect(item.text(kSecAttrServer) == "registry.example.com")
        #expect(item.text(kSecAttrProtocol) == kSecAttrProtocolHTTPS as String)
        #expect(item.number(kSecAttrPort) == 5000)
        #expect(item.text(kSecAttrPath) == "/v2/")
        #expect(item.text(kSecAttrAccount) == "alice")
        #expect(item.text(kSecAttrAccessGroup) == Self.group)
        #expect(item.secret == "tok-1")
        let found = try user.keychainctl("find-internet-password", "-s", "registry.example.com")
        #expect(found.status == 0, "\(found.errors)")
        #expect(found.output.contains("    0x00000007 <blob>=\"Docker Credentials\"\n"))
        #expect(found.output.contains("    \"srvr\"<blob>=\"registry.example.com\"\n"))
        #expect(found.output.contains("    \"acct\"<blob>=\"alice\"\n"))
        #expect(try user.keychainctl("find-internet-password", "-s", "registry.example.com", "-w").output == "tok-1\n")
    }

    /// An http registry is stored under the http protocol, apart from an https one.
    @Test func httpAndHttpsRegistriesAreKeptApart() throws {
        _ = try user.docker("store", try Self.credentials("http://localhost:5000", "plain", "tok-http"))
        _ = try user.docker("store", try Self.credentials("https://localhost:5000", "secure", "tok-https"))
        #expect(try get("http://localhost:5000").json?["Secret"] == "tok-http")
        #expect(try get("https://localhost:5000").json?["Secret"] == "tok-https")
        #expect(try user.storedItems(group: Self.group).compactMap { $0.text(kSecAttrProtocol) }.sorted()
            == [kSecAttrProtocolHTTP as String, kSecAttrProtocolHTTPS as String].sorted())
    }

    @Test func getOfUnknownServerAnswersDockersNotFoundMessage() throws {
        let answer = try user.docker("get", "https://nowhere.example.com\n")
        #expect(answer.status == 1)
        #expect(answer.output == "credentials not found in native keychain\n")
    }

    /// A second store for a server replaces its credentials, one item per server.
    @Test func storeReplacesTheCredentialsOfItsServer() throws {
        _ = try user.docker("store", try Self.credentials("https://registry.example.com", "alice", "tok-1"))
        _ = try user.docker("store", try Self.credentials("https://registry.example.com", "bob", "tok-2"))
        #expect(try get("https://registry.example.com").json?["Username"] == "bob")
        #expect(try get("https://registry.example.com").json?["Secret"] == "tok-2")
        #expect(try user.storedItems(group: Self.group).count == 1)
    }

    /// A registry without a port is another server than the same host with one.
    @Test func aPortlessRegistryIsKeptApartFromOneWithAPort() throws {
        _ = try user.docker("store", try Self.credentials("registry.example.com:5000", "alice", "tok-5000"))
        _ = try user.docker("store", try Self.credentials("registry.example.com", "bob", "tok-plain"))
        #expect(try user.storedItems(group: Self.group).count == 2)
        #expect(try get("registry.example.com").json?["Secret"] == "tok-plain")
        #expect(try get("registry.example.com:5000").json?["Secret"] == "tok-5000")
        #expect(try user.docker("erase", "registry.example.com").status == 0)
        #expect(try get("registry.example.com:5000").json?["Secret"] == "tok-5000")
        #expect(try user.docker("get", "registry.example.com").output == "credentials not found in native keychain\n")
    }

    /// A registry URL with a path is its own server: a URL without a scheme is https, and
    /// neither the host alone, another path nor http gets or erases its credentials.
    @Test func aRegistryPathIsKeptApartFromItsHostAndOtherPaths() throws {
        _ = try user.docker("store", try Self.credentials("registry.example.com/team-a", "alice", "tok-a"))
        #expect(try get("https://registry.example.com/team-a").json?["Secret"] == "tok-a")
        for other in ["registry.example.com", "https://registry.example.com", "registry.example.com/team-b",
                      "http://registry.example.com/team-a", "registry.example.com:443/team-a"] {
            #expect(try user.docker("get", other).output == "credentials not found in native keychain\n", "\(other)")
            let erased = try user.docker("erase", other)
            #expect(erased.status == 1, "\(other)")
        }
        #expect(try get("registry.example.com/team-a").json?["Secret"] == "tok-a")
        #expect(try user.storedItems(group: Self.group).count == 1)
    }

    @Test func eraseRemovesOnlyItsServersCredentials() throws {
        _ = try user.docker("store", try Self.credentials("https://registry.example.com", "alice", "tok-1"))
        _ = try user.docker("store", try Self.credentials("https://other.example.com", "bob", "tok-2"))
        let erased = try user.docker("erase", "https://registry.example.com\n")
        #expect(erased.status == 0 && erased.output == "")
        #expect(try user.docker("get", "https://registry.example.com").output == "credentials not found in native keychain\n")
        #expect(try get("https://other.example.com").json?["Secret"] == "tok-2")
        let again = try user.docker("erase", "https://registry.example.com")
        #expect(again.status == 1)
        #expect(again.output == "credentials not found in native keychain\n")
    }

    /// `list` answers {url: username} for Docker's items only (by their label).
    @Test func listAnswersTheURLsAndUsernames() throws {
        #expect(try user.docker("list").output == "{}\n")
        _ = try user.docker("store", try Self.credentials("registry.example.com", "alice", "tok-1"))
        _ = try user.docker("store", try Self.credentials("http://localhost:5000/v2/", "bob", "tok-2"))
        _ = try user.gitCredential("approve", "url=https://carol@git.example.com\npassword=pw\n\n")
        let listed = try user.docker("list")
        #expect(listed.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: String]
        #expect(json == ["https://registry.example.com": "alice", "http://localhost:5000/v2/": "bob"])
        #expect(!listed.output.contains("tok-"))
    }

    @Test func versionNamesTheHelper() throws {
        let version = try user.docker("version")
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("docker-credential-keychain (swift-keychain) "))
    }
}

/// Bad input to docker-credential-keychain: Docker's message on standard output, status 1,
/// nothing stored, and never the secret in the message.
@Suite struct DockerCredentialBadInputTests {
    let user = CredentialHelperUser()

    func expectRejected(_ action: String, _ input: String, saying message: String,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try user.docker(action, input)
        #expect(outcome.status == 1, sourceLocation: sourceLocation)
        #expect(outcome.output == message + "\n", sourceLocation: sourceLocation)
        #expect(try user.storedItems(group: DockerCredentialTests.group).isEmpty, sourceLocation: sourceLocation)
    }

    @Test func inputThatIsNotJSONIsRejected() throws {
        try expectRejected("store", "ServerURL=https://registry.example.com Secret=hunter2",
                           saying: "the credentials are not JSON of the form {\"ServerURL\":…,\"Username\":…,\"Secret\":…}")
        try expectRejected("store", "[\"hunter2\"]",
                           saying: "the credentials are not JSON of the form {\"ServerURL\":…,\"Username\":…,\"Secret\":…}")
        try expectRejected("store", "{\"ServerURL\":\"https://registry.example.com\",\"Username\":\"alice\",\"Secret\":\"hunter2\"",
                           saying: "the credentials are not JSON of the form {\"ServerURL\":…,\"Username\":…,\"Secret\":…}")
    }

    @Test func aFieldThatIsNotAStringIsNamed() throws {
        try expectRejected("store", "{\"ServerURL\":\"https://registry.example.com\",\"Username\":7,\"Secret\":\"hunter2\"}",
                           saying: "Username is not a string")
    }

    /// docker-credential-helpers' own messages for missing fields.
    @Test func missingFieldsGetDockersMessages() throws {
        try expectRejected("store", "{\"Username\":\"alice\",\"Secret\":\"hunter2\"}", saying: "no credentials server URL")
        try expectRejected("store", "{\"ServerURL\":\"https://registry.example.com\",\"Secret\":\"hunter2\"}",
                           saying: "no credentials username")
        try expectRejected("get", "  \n", saying: "no credentials server URL")
        try expectRejected("erase", "", saying: "no credentials server URL")
    }

    @Test func serverURLsWithoutHostOrWithOtherSchemesAreRejected() throws {
        try expectRejected("store", "{\"ServerURL\":\"ftp://registry.example.com\",\"Username\":\"alice\",\"Secret\":\"hunter2\"}",
                           saying: "unsupported scheme: ftp")
        try expectRejected("store", "{\"ServerURL\":\"https:///v2/\",\"Username\":\"alice\",\"Secret\":\"hunter2\"}",
                           saying: "no hostname in URL")
        try expectRejected("get", "ftp://registry.example.com", saying: "unsupported scheme: ftp")
    }

    /// The input is read to a bound (256 KiB), never without limit.
    @Test func hugeInputIsRejectedAtTheBound() throws {
        let huge = "{\"ServerURL\":\"https://registry.example.com\",\"Username\":\"alice\",\"Secret\":\""
            + String(repeating: "x", count: 1 << 20) + "\"}"
        try expectRejected("store", huge, saying: "the input is larger than 256 KiB, more than a credential request holds")
    }

    @Test func unknownActionsAndMissingActionsAreRejected() throws {
        try expectRejected("frobnicate", "", saying: "Unknown credential action `frobnicate`")
        let none = try user.dockerHelper.run([], dataHome: user.dataHome)
        #expect(none.status == 1)
        #expect(none.output == "Usage: docker-credential-keychain <store|get|erase|list|version>\n")
    }
}
