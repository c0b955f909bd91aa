import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TestTags

/// SecItem calls on access-controlled items as apps make them (KeychainAccess, SimpleKeychain,
/// Valet), with the user's presence proven through the system's real PAM: PresenceWorker runs
/// as the test user on a pseudo-terminal (or with none) against a keychain of that user's.
@Suite(.enabled(if: PresenceTestUser.canBeMade, "only root can make the test user whose password PAM checks"))
struct AccessControlledItemTests {
    let user: PresenceTestUser
    let worker: String

    init() throws {
        user = try PresenceTestUser.prepared()
        worker = try user.reachablePath(of: ProgramProcess("PresenceWorker"))
    }

    /// Folders for the test user's keychain and machine secret, which it owns.
    func keychainHome() throws -> [String: String] {
        let home = TestScratch.folder("presence-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        chmod(home.deletingLastPathComponent().path, 0o755)
        guard chown(home.path, user.uid, user.gid) == 0 else { throw PresenceTestUserError.failed("chown: errno \(errno)") }
        chmod(home.path, 0o700)
        return ["XDG_DATA_HOME": home.appendingPathComponent("data").path,
                "XDG_STATE_HOME": home.appendingPathComponent("state").path]
    }

    func count(_ text: String, in terminal: String) -> Int {
        terminal.components(separatedBy: text).count - 1
    }

    @Test("Access control: reading a .userPresence item's secret asks for the login password with the operation prompt; the right one gives the secret")
    func presenceOnTerminal() throws {
        let session = try user.startOnTerminal(worker, ["add:userPresence", "operation-prompt:Unlock the worker's item", "read"],
                                               environment: try keychainHome())
        try session.waitFor("Unlock the worker's item")
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == """
            add:userPresence -> status 0
            operation-prompt:Unlock the worker's item -> ok
            read -> status 0 matches

            """, "\(outcome.errors)")
    }

    @Test("Access control: a wrong password is errSecAuthFailed and a cancelled prompt errSecUserCanceled; nothing is handed out", .tags(.slow))
    func wrongPasswordAndCancel() throws {
        let session = try user.startOnTerminal(worker, ["add:devicePasscode", "read", "read"], environment: try keychainHome())
        try session.waitFor("Password: ")
        session.type("wrong-" + PresenceTestUser.password)
        // The second read's prompt: the first read has ended.
        try session.waitFor("Password: ")
        session.press("\u{4}")
        let outcome = try session.finish()
        #expect(outcome.output == "add:devicePasscode -> status 0\nread -> status -25293\nread -> status -128\n", "\(outcome.errors)")
    }

    @Test("Access control: with no terminal and no agent the read is errSecInteractionNotAllowed at once; Fail and Skip never ask")
    func noOneToAsk() throws {
        let outcome = try #require(try user.runWithoutTerminal(
            worker, ["add:userPresence", "read", "read-fail", "read-skip", "read-context"],
            environment: try keychainHome(), input: PresenceTestUser.password + "\n", timeout: 60), "the worker hung")
        #expect(outcome.output == """
            add:userPresence -> status 0
            read -> status -25308
            read-fail -> status -25308
            read-skip -> status -25300
            read-context -> status -25308

            """, "\(outcome.errors)")
    }

    @Test("Access control: one LAContext proves presence once, then serves every read given it without asking again (Valet's single prompt), even where the call may not ask")
    func contextReusedAcrossReads() throws {
        let session = try user.startOnTerminal(worker, ["add:userPresence", "read-context-fail", "read-context", "read-context",
                                                        "read-context-fail", "read-fail"],
                                               environment: try keychainHome())
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == """
            add:userPresence -> status 0
            read-context-fail -> status -25308
            read-context -> status 0 matches
            read-context -> status 0 matches
            read-context-fail -> status 0 matches
            read-fail -> status -25308

            """, "\(outcome.errors)")
        #expect(count("Password: ", in: outcome.terminal) == 1)
    }

    @Test("Access control: a context evaluated with LAContext.evaluatePolicy opens the item without a second prompt")
    func evaluatedContextOpensItem() throws {
        let session = try user.startOnTerminal(worker, ["add:userPresence", "evaluate:deviceOwnerAuthentication", "read-context"],
                                               environment: try keychainHome())
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output.hasSuffix("read-context -> status 0 matches\n"), "\(outcome.output) \(outcome.errors)")
        #expect(count("Password: ", in: outcome.terminal) == 1)
    }

    @Test("LAContext.evaluateAccessControl asks what the access control needs: nothing for .privateKeyUsage, biometryNotAvailable for biometry, the password once for .userPresence, which then opens the item")
    func evaluateAccessControl() throws {
        let session = try user.startOnTerminal(worker, ["add:userPresence", "evaluate-ac:privateKeyUsage", "evaluate-ac:biometryAny",
                                                        "evaluate-ac:userPresence", "read-context"], environment: try keychainHome())
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == """
            add:userPresence -> status 0
            evaluate-ac:privateKeyUsage -> ok
            evaluate-ac:biometryAny -> LAError -6
            evaluate-ac:userPresence -> ok
            read-context -> status 0 matches

            """, "\(outcome.errors)")
        #expect(count("Password: ", in: outcome.terminal) == 1)
    }

    @Test("Application password: the secret opens only with the password given through the context; a wrong one is errSecAuthFailed")
    func applicationPasswordThroughContext() throws {
        let outcome = try #require(try user.runWithoutTerminal(worker, [
            "credential:app-pw-1", "add:applicationPassword", "read-context", "new-context", "credential:app-pw-2", "read-context",
            "new-context", "read-context", "credential:app-pw-1", "update-context:second secret", "read-context",
        ], environment: try keychainHome(), timeout: 120), "the worker hung")
        #expect(outcome.output == """
            credential:app-pw-1 -> ok
            add:applicationPassword -> status 0
            read-context -> status 0 matches
            new-context -> ok
            credential:app-pw-2 -> ok
            read-context -> status -25293
            new-context -> ok
            read-context -> status -25308
            credential:app-pw-1 -> ok
            update-context:second secret -> status 0
            read-context -> status 0 matches

            """, "\(outcome.errors)")
    }

    @Test("Application password: without a context it is asked for on the terminal, and the secret opens with it")
    func applicationPasswordAsked() throws {
        let session = try user.startOnTerminal(worker, ["credential:typed-app-pw", "add:applicationPassword", "read"],
                                               environment: try keychainHome())
        try session.waitFor("Application password")
        session.type("typed-app-pw")
        let outcome = try session.finish()
        #expect(outcome.output.hasSuffix("read -> status 0 matches\n"), "\(outcome.output) \(outcome.errors)")
    }

    @Test("Secure Enclave-style key with .userPresence: signing asks once through the context it was found with")
    func keyUseAsksForPresence() throws {
        let session = try user.startOnTerminal(worker, ["sign", "sign"], environment: try keychainHome())
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == "sign -> status 0\nsign -> status 0\n", "\(outcome.errors)")
        #expect(count("Password: ", in: outcome.terminal) == 1)
    }
}
