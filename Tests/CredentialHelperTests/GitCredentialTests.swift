import Foundation
import Security
import Testing

/// git-credential-keychain driven by git itself (`git credential fill/approve/reject`) and,
/// for what git 2.39 does not send yet (expiry, OAuth refresh tokens, state), by the
/// protocol's lines as current git sends them.
@Suite struct GitCredentialTests {
    let user = CredentialHelperUser()
    static let group = "git-credential-keychain"

    @Test func fillWithoutUsernameAnswersWhatApproveStored() throws {
        let approved = try user.gitCredential("approve", "url=https://alice@git.example.com\npassword=s3cret\n\n")
        #expect(approved.status == 0, "\(approved.errors)")
        let filled = try user.fill("url=https://git.example.com\n\n")
        #expect(filled?["username"] == "alice")
        #expect(filled?["password"] == "s3cret")
    }

    /// An empty password (`password=`, as a token-less account sends it) comes back empty,
    /// rather than failing the lookup and making git ask; so does an empty username.
    @Test func emptyPasswordsAndUsernamesRoundTrip() throws {
        let approved = try user.gitCredential("approve", "url=https://alice@git.example.com\npassword=\n\n")
        #expect(approved.status == 0, "\(approved.errors)")
        let filled = try user.gitCredential("fill", "url=https://git.example.com\n\n")
        #expect(filled.status == 0, "\(filled.errors)")
        #expect(filled.output.split(separator: "\n").contains("username=alice"), "\(filled.output)")
        #expect(filled.output.split(separator: "\n", omittingEmptySubsequences: false).contains("password="), "\(filled.output)")
        #expect(filled.errors.isEmpty, "\(filled.errors)")

        let anonymous = try user.gitCredential("approve", "url=https://other.example.com\nusername=\npassword=tok\n\n")
        #expect(anonymous.status == 0, "\(anonymous.errors)")
        let token = try user.fill("url=https://other.example.com\n\n")
        #expect(token?["password"] == "tok")
    }

    /// The item has the attributes git's osxkeychain helper gives it, in the helper's own access group.
    @Test func theStoredItemIsAnInternetPasswordAsOsxkeychainStoresIt() throws {
        let approved = try user.gitCredential(
            "approve", "url=https://alice@git.example.com:8443/org/repo.git\npassword=s3cret\n\n", useHttpPath: true)
        #expect(approved.status == 0, "\(approved.errors)")
        let items = try user.storedItems(group: Self.group)
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.text(kSecClass) == nil || item.text(kSecClass) == kSecClassInternetPassword as String)
        #expect(item.text(kSecAttrServer) == "git.example.com")
        #expect(item.text(kSecAttrProtocol) == kSecAttrProtocolHTTPS as String)
        #expect(item.number(kSecAttrPort) == 8443)
        #expect(item.text(kSecAttrPath) == "org/repo.git")
        #expect(item.text(kSecAttrAccount) == "alice")
        #expect(item.text(kSecAttrAuthenticationType) == kSecAttrAuthenticationTypeDefault as String)
        #expect(item.text(kSecAttrAccessGroup) == Self.group)
        #expect(item.secret == "s3cret")
    }

    /// keychainctl, which sees every access group, shows the item and its password.
    @Test func keychainctlFindsWhatTheHelperStored() throws {
        _ = try user.gitCredential("approve", "url=https://alice@git.example.com/\npassword=s3cret\n\n")
        let found = try user.keychainctl("find-internet-password", "-s", "git.example.com")
        #expect(found.status == 0, "\(found.errors)")
        #expect(found.output.contains("    \"srvr\"<blob>=\"git.example.com\"\n"))
        #expect(found.output.contains("    \"acct\"<blob>=\"alice\"\n"))
        #expect(found.output.contains("    \"ptcl\"<uint32>=\"htps\"\n"))
        let password = try user.keychainctl("find-internet-password", "-s", "git.example.com", "-a", "alice", "-w")
        #expect(password.output == "s3cret\n")
    }

    @Test func twoAccountsOnOneHostAreKeptApart() throws {
        _ = try user.gitCredential("approve", "url=https://alice@git.example.com\npassword=alice-pw\n\n")
        _ = try user.gitCredential("approve", "url=https://bob@git.example.com\npassword=bob-pw\n\n")
        #expect(try user.storedItems(group: Self.group).count == 2)
        #expect(try user.fill("url=https://bob@git.example.com\n\n")?["password"] == "bob-pw")
        #expect(try user.fill("url=https://alice@git.example.com\n\n")?["password"] == "alice-pw")
        // A new password for one account replaces that account's alone.
        _ = try user.gitCredential("approve", "url=https://bob@git.example.com\npassword=bob-new\n\n")
        #expect(try user.fill("url=https://bob@git.example.com\n\n")?["password"] == "bob-new")
        #expect(try user.fill("url=https://alice@git.example.com\n\n")?["password"] == "alice-pw")
        #expect(try user.storedItems(group: Self.group).count == 2)
    }

    /// credential.useHttpPath: each repository's credential is found by its path alone.
    @Test func pathScopedCredentialsAnswerOnlyTheirPath() throws {
        _ = try user.gitCredential("approve", "url=https://alice@git.example.com/a.git\npassword=pw-a\n\n", useHttpPath: true)
        _ = try user.gitCredential("approve", "url=https://bob@git.example.com/b.git\npassword=pw-b\n\n", useHttpPath: true)
        let b = try user.fill("url=https://git.example.com/b.git\n\n", useHttpPath: true)
        #expect(b?["username"] == "bob")
        #expect(b?["password"] == "pw-b")
        #expect(try user.fill("url=https://git.example.com/a.git\n\n", useHttpPath: true)?["password"] == "pw-a")
        #expect(try user.fill("url=https://git.example.com/c.git\n\n", useHttpPath: true) == nil)
    }

    /// A host-wide credential of an account is another item than that account's credential for one path.
    @Test func aHostWideCredentialDoesNotReplaceAPathScopedOne() throws {
        _ = try user.gitCredential("approve", "url=https://alice@git.example.com/a.git\npassword=pw-a\n\n", useHttpPath: true)
        _ = try user.gitCredential("approve", "url=https://alice@git.example.com\npassword=pw-host\n\n")
        #expect(try user.storedItems(group: Self.group).count == 2)
        #expect(try user.fill("url=https://git.example.com/a.git\n\n", useHttpPath: true)?["password"] == "pw-a")
    }

    /// Neither another host, nor another protocol or port of the same host, gets the password.
    @Test func otherHostsProtocolsAndPortsAreNotAnswered() throws {
        _ = try user.gitCredential("approve", "url=https://alice@git.example.com\npassword=s3cret\n\n")
        #expect(try user.fill("url=https://other.example.com\n\n") == nil)
        #expect(try user.fill("url=http://git.example.com\n\n") == nil)
        #expect(try user.fill("url=https://git.example.com:8443\n\n") == nil)
    }

    /// The other way round: git's host includes the port, so a credential kept for
    /// `git.example.com:8443` (another service, perhaps another user's, on that port) is
    /// neither answered for `git.example.com` nor erased by a reject of it, as git's own
    /// helpers (store, cache) match hosts whole.
    @Test func aCredentialOfOnePortIsNotAnsweredOrErasedForTheHostWithoutIt() throws {
        _ = try user.gitCredential("approve", "url=https://alice@git.example.com:8443\npassword=port-pw\n\n")
        #expect(try user.fill("url=https://git.example.com\n\n") == nil)
        #expect(try user.fill("url=https://alice@git.example.com\n\n") == nil)
        let direct = try user.gitHelper("get", CredentialHelperUser.lines("protocol=https", "host=git.example.com"))
        #expect(direct.status == 0, "\(direct.errors)")
        #expect(direct.output == "")
        let rejected = try user.gitCredential("reject", "url=https://alice@git.example.com\n\n")
        #expect(rejected.status == 0, "\(rejected.errors)")
        #expect(try user.storedItems(group: Self.group).count == 1)
        #expect(try user.fill("url=https://git.example.com:8443\n\n")?["password"] == "port-pw")
        // A credential for the host without a port is still found beside it.
        _ = try user.gitCredential("approve", "url=https://bob@git.example.com\npassword=host-pw\n\n")
        #expect(try user.fill("url=https://git.example.com\n\n")?["password"] == "host-pw")
        #expect(try user.fill("url=https://git.example.com:8443\n\n")?["password"] == "port-pw")
    }

    @Test func rejectErasesOnlyTheMatchingCredential() throws {
        _ = try user.gitCredential("approve", "url=https://alice@git.example.com\npassword=alice-pw\n\n")
        _ = try user.gitCredential("approve", "url=https://bob@git.example.com\npassword=bob-pw\n\n")
        // As osxkeychain: with a password, only the item holding that password goes.
        let wrong = try user.gitCredential("reject", "url=https://alice@git.example.com\npassword=not-alice-pw\n\n")
        #expect(wrong.status == 0, "\(wrong.errors)")
        #expect(try user.storedItems(group: Self.group).count == 2)
        _ = try user.gitCredential("reject", "url=https://alice@git.example.com\npassword=alice-pw\n\n")
        let left = try user.storedItems(group: Self.group)
        #expect(left.map { $0.text(kSecAttrAccount) } == ["bob"])
        #expect(try user.fill("url=https://alice@git.example.com\n\n") == nil)
        #expect(try user.fill("url=https://git.example.com\n\n")?["password"] == "bob-pw")
    }

    /// An expired password is not answered, so git asks again (here: fails, as prompts are off).
    @Test func anExpiredPasswordIsNotReturned() throws {
        let stored = try user.gitHelper("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=old", "password_expiry_utc=1000"))
        #expect(stored.status == 0, "\(stored.errors)")
        let answer = try user.gitHelper("get", CredentialHelperUser.lines("protocol=https", "host=git.example.com"))
        #expect(answer.status == 0)
        #expect(answer.output == "")
        #expect(try user.fill("url=https://git.example.com\n\n") == nil)
    }

    /// As git's osxkeychain helper keeps them: the expiry and the OAuth refresh token follow
    /// the password in the item's secret, and come back with it.
    @Test func expiryAndRefreshTokenAreKeptAsOsxkeychainKeepsThem() throws {
        let expiry = Int(Date().timeIntervalSince1970) + 3600
        _ = try user.gitHelper("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=fresh",
            "password_expiry_utc=\(expiry)", "oauth_refresh_token=refresh-me"))
        #expect(try user.storedItems(group: Self.group).map(\.secret)
            == ["fresh\npassword_expiry_utc=\(expiry)\noauth_refresh_token=refresh-me"])
        let answer = try user.gitHelper("get", CredentialHelperUser.lines("protocol=https", "host=git.example.com"))
        #expect(CredentialHelperUser.fields(answer.output) == [
            "username": "alice", "password": "fresh", "password_expiry_utc": "\(expiry)",
            "oauth_refresh_token": "refresh-me",
        ])
        // git itself uses the unexpired password.
        #expect(try user.fill("url=https://git.example.com\n\n")?["password"] == "fresh")
    }

    /// git 2.46's state capability: a credential git found here and stores back is left as it is.
    @Test func aCredentialFoundHereIsNotStoredAgain() throws {
        _ = try user.gitHelper("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=kept"))
        let answer = try user.gitHelper("get", CredentialHelperUser.lines(
            "capability[]=state", "protocol=https", "host=git.example.com"))
        #expect(answer.output.contains("capability[]=state\nstate[]=keychain:seen=1\n"))
        let withoutCapability = try user.gitHelper("get", CredentialHelperUser.lines("protocol=https", "host=git.example.com"))
        #expect(!withoutCapability.output.contains("state[]"))
        _ = try user.gitHelper("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=changed", "state[]=keychain:seen=1"))
        #expect(try user.storedItems(group: Self.group).map(\.secret) == ["kept"])
    }

    /// git asks helpers to ignore actions and keys they do not know.
    @Test func unknownActionsAndKeysAreIgnored() throws {
        let unknown = try user.gitHelper("frobnicate", CredentialHelperUser.lines("protocol=https", "host=git.example.com"))
        #expect(unknown.status == 0)
        #expect(unknown.output == "" && unknown.errors == "")
        let stored = try user.gitHelper("store", CredentialHelperUser.lines(
            "capability[]=authtype", "protocol=https", "host=git.example.com", "wwwauth[]=Basic realm=\"x\"",
            "username=alice", "password=pw", "future_key=value"))
        #expect(stored.status == 0, "\(stored.errors)")
        #expect(try user.storedItems(group: Self.group).map(\.secret) == ["pw"])
    }

    /// Protocols osxkeychain does not keep (ssh, cert) are neither stored nor answered.
    @Test func otherProtocolsAreLeftToOtherHelpers() throws {
        let stored = try user.gitHelper("store", CredentialHelperUser.lines(
            "protocol=cert", "host=git.example.com", "username=alice", "password=pw"))
        #expect(stored.status == 1)
        #expect(try user.storedItems(group: Self.group).isEmpty)
        let answer = try user.gitHelper("get", CredentialHelperUser.lines("protocol=cert", "host=git.example.com"))
        #expect(answer.status == 0 && answer.output == "")
    }
}

/// Bad input to git-credential-keychain: a clear message on standard error, status 1,
/// nothing stored, and never the password in the message.
@Suite struct GitCredentialBadInputTests {
    let user = CredentialHelperUser()

    func expectRejected(_ action: String, _ input: String, saying message: String,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try user.gitHelper(action, input)
        #expect(outcome.status == 1, sourceLocation: sourceLocation)
        #expect(outcome.errors.hasPrefix("git-credential-keychain: \(action) failed: "), "\(outcome.errors)",
                sourceLocation: sourceLocation)
        #expect(outcome.errors.contains(message), "\(outcome.errors)", sourceLocation: sourceLocation)
        #expect(outcome.output == "", sourceLocation: sourceLocation)
        #expect(!outcome.errors.contains("hunter2"), sourceLocation: sourceLocation)
        #expect(try user.storedItems(group: GitCredentialTests.group).isEmpty, sourceLocation: sourceLocation)
    }

    @Test func aLineWithoutEqualsSignIsNamedByNumberNotByText() throws {
        try expectRejected("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=pw", "hunter2"),
            saying: "bad input: line 5 is not of the form key=value")
    }

    @Test func aPortOutOfRangeIsRejected() throws {
        try expectRejected("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com:99999", "username=alice", "password=hunter2"),
            saying: "bad input: the port of the host on line 2 is not a number from 1 to 65535")
    }

    @Test func anExpiryThatIsNotANumberIsRejected() throws {
        try expectRejected("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=hunter2", "password_expiry_utc=soon"),
            saying: "bad input: password_expiry_utc on line 5 is not a number of seconds")
    }

    @Test func aNulByteIsRejected() throws {
        try expectRejected("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=hunter2\u{0}x"),
            saying: "bad input: line 4 holds a NUL byte")
    }

    @Test func storeWithoutUsernameOrPasswordStoresNothing() throws {
        try expectRejected("store", CredentialHelperUser.lines("protocol=https", "host=git.example.com", "password=hunter2"),
                           saying: "store needs")
        try expectRejected("store", CredentialHelperUser.lines("protocol=https", "host=git.example.com", "username=alice"),
                           saying: "store needs")
        try expectRejected("store", CredentialHelperUser.lines("protocol=https", "username=alice", "password=hunter2"),
                           saying: "store needs")
    }

    @Test func eraseWithoutHostIsRejected() throws {
        try expectRejected("erase", CredentialHelperUser.lines("protocol=https", "username=alice"),
                           saying: "erase needs a protocol this helper keeps and a host")
    }

    /// The input is read to a bound (256 KiB), never without limit.
    @Test func hugeInputIsRejectedAtTheBound() throws {
        let huge = "protocol=https\nhost=git.example.com\nusername=alice\npassword=hunter2"
            + String(repeating: "x", count: 1 << 20) + "\n\n"
        try expectRejected("store", huge, saying: "the input is larger than 256 KiB")
    }

    @Test func noActionPrintsTheUsage() throws {
        let outcome = try user.gitHelper.run([], dataHome: user.dataHome)
        #expect(outcome.status == 1)
        #expect(outcome.errors == "git-credential-keychain: usage: git-credential-keychain <get|store|erase>\n")
    }
}
