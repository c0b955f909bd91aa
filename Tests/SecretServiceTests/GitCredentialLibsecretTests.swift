import Foundation
import Testing
import TestSupport

/// git's own libsecret credential helper, built from the contrib sources Debian's git package
/// ships, driven by `git credential fill/approve/reject` as git does for an HTTPS remote.
@Suite struct GitCredentialLibsecretTests {
    /// git-credential-libsecret, built once for the test process.
    static let helper = CProgram.build(
        "git-credential-libsecret",
        sources: [URL(fileURLWithPath: "/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c")],
        packages: ["libsecret-1", "glib-2.0"])

    /// `git credential ACTION` with the helper as the only one configured (no system or user
    /// configuration of the machine's), no terminal prompt, and `description` on its input.
    private func git(_ bus: PrivateSessionBus, _ action: String, _ description: String) throws -> ProgramProcess.Outcome {
        let home = bus.dataHome.appendingPathComponent("git-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return try bus.runClient(
            "/usr/bin/git", ["-c", "credential.helper=", "-c", "credential.helper=\(try Self.helper.get().path)",
                             "credential", action],
            input: description,
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path, "GIT_CONFIG_NOSYSTEM": "1",
                          "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": nil, "SSH_ASKPASS": nil])
    }

    /// approve stores the credential; fill returns it for the same protocol and host (with or
    /// without the user name); the item is the keychain's, under git's label.
    @Test func approveThenFillReturnsTheStoredCredential() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let approved = try git(bus, "approve", "protocol=https\nhost=git.example.com\nusername=ann\npassword=t0ken-1\n\n")
            #expect(approved.status == 0, "\(approved.errors)")
            let filled = try git(bus, "fill", "protocol=https\nhost=git.example.com\nusername=ann\n\n")
            #expect(filled.status == 0, "\(filled.errors)")
            #expect(filled.output == "protocol=https\nhost=git.example.com\nusername=ann\npassword=t0ken-1\n")
            let byHost = try git(bus, "fill", "protocol=https\nhost=git.example.com\n\n")
            #expect(byHost.output == "protocol=https\nhost=git.example.com\nusername=ann\npassword=t0ken-1\n",
                    "\(byHost.errors)")
            let found = try bus.keychainctl("find-generic-password", "-l", "Git: https://git.example.com/", "-w")
            #expect(found.status == 0, "\(found.errors)")
            #expect(found.output == "t0ken-1\n")
        }
    }

    /// A new password approved for the same user and host replaces the old one: fill never
    /// returns a stale credential.
    @Test func approvingAgainReplacesThePassword() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try git(bus, "approve", "protocol=https\nhost=git.example.com\nusername=ann\npassword=old\n\n").status == 0)
            #expect(try git(bus, "approve", "protocol=https\nhost=git.example.com\nusername=ann\npassword=new\n\n").status == 0)
            let filled = try git(bus, "fill", "protocol=https\nhost=git.example.com\nusername=ann\n\n")
            #expect(filled.output.hasSuffix("password=new\n"), "\(filled.output) \(filled.errors)")
            let search = try bus.secretTool("search", "--all", "server", "git.example.com")
            let secrets = (search.output + search.errors).split(separator: "\n").filter { $0.hasPrefix("secret = ") }
            #expect(secrets == ["secret = new"])
        }
    }

    /// reject erases the credential: the next fill has nothing to give, and git, which may
    /// not prompt, fails instead of using it; another host's credential stays.
    @Test func rejectErasesTheCredentialAndOnlyThatOne() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try git(bus, "approve", "protocol=https\nhost=git.example.com\nusername=ann\npassword=one\n\n").status == 0)
            #expect(try git(bus, "approve", "protocol=https\nhost=other.example\nusername=bob\npassword=two\n\n").status == 0)
            let rejected = try git(bus, "reject", "protocol=https\nhost=git.example.com\nusername=ann\n\n")
            #expect(rejected.status == 0, "\(rejected.errors)")
            let filled = try git(bus, "fill", "protocol=https\nhost=git.example.com\nusername=ann\n\n")
            #expect(filled.status != 0)
            #expect(!filled.output.contains("password="))
            #expect(filled.errors.contains("terminal prompts disabled"), "\(filled.errors)")
            let other = try git(bus, "fill", "protocol=https\nhost=other.example\n\n")
            #expect(other.output == "protocol=https\nhost=other.example\nusername=bob\npassword=two\n", "\(other.errors)")
        }
    }
}
