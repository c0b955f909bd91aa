import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TestTags

/// LAContext proving presence against the system's real PAM: PresenceWorker runs as the test
/// user (PresenceTestUser), on a pseudo-terminal that is its controlling terminal or with none,
/// and prints each step's outcome (see Tests/PresenceWorker/main.swift).
@Suite(.enabled(if: PresenceTestUser.canBeMade, "only root can make the test user whose password PAM checks"))
struct PAMPresenceTests {
    let user: PresenceTestUser
    let worker: String

    init() throws {
        user = try PresenceTestUser.prepared()
        worker = try user.reachablePath(of: ProgramProcess("PresenceWorker"))
    }

    static let evaluate = "evaluate:deviceOwnerAuthentication"

    /// How many times `text` appears in `terminal`.
    func count(_ text: String, in terminal: String) -> Int {
        terminal.components(separatedBy: text).count - 1
    }

    @Test("LocalAuthentication: the right login password proves presence, typed without echo, and the terminal is restored")
    func rightPasswordSucceeds() throws {
        let session = try user.startOnTerminal(worker, [Self.evaluate])
        // The reason the application gave, then PAM's own prompt.
        try session.waitFor("presence-worker \(Self.evaluate)")
        try session.waitFor("Password: ")
        #expect(!session.echoes, "echo must be off while the password is typed")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == "\(Self.evaluate) -> ok\n", "\(outcome.errors)")
        #expect(!outcome.terminal.contains(PresenceTestUser.password))
        #expect(session.echoes)
        #expect(outcome.status == 0)
    }

    @Test("LocalAuthentication: a wrong password gives LAError.authenticationFailed", .tags(.slow))
    func wrongPasswordFails() throws {
        let session = try user.startOnTerminal(worker, [Self.evaluate])
        try session.waitFor("Password: ")
        session.type("not-" + PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == "\(Self.evaluate) -> LAError -1\n", "\(outcome.errors)")
        #expect(session.echoes)
    }

    @Test("LocalAuthentication: Ctrl-D, Ctrl-C or Ctrl-\\ at the prompt gives LAError.userCancel and the process goes on",
          arguments: ["\u{4}", "\u{3}", "\u{1C}"])
    func controlKeysCancel(key: String) throws {
        let session = try user.startOnTerminal(worker, [Self.evaluate, "can:deviceOwnerAuthentication"])
        try session.waitFor("Password: ")
        session.press(key)
        let outcome = try session.finish()
        // The step after the cancel ran: Ctrl-C did not kill the process.
        #expect(outcome.output == "\(Self.evaluate) -> LAError -2\ncan:deviceOwnerAuthentication -> ok\n", "\(outcome.errors)")
        #expect(outcome.status == 0)
        #expect(session.echoes)
    }

    @Test("LocalAuthentication: without a terminal or KEYCHAIN_ASKPASS, evaluation is notInteractive at once and standard input is never read")
    func noTerminalIsNotInteractive() throws {
        // The password waits on standard input: reading it would prove presence.
        let outcome = try #require(
            try user.runWithoutTerminal(worker, [Self.evaluate, "prove"], input: PresenceTestUser.password + "\n", timeout: 60),
            "the worker hung without a terminal")
        #expect(outcome.output == "\(Self.evaluate) -> LAError -1004\nprove -> PresenceFailure notInteractive\n", "\(outcome.errors)")
    }

    @Test("LocalAuthentication: the KEYCHAIN_ASKPASS agent is asked with the reason and PAM's prompt; its answer proves presence")
    func askpassAgentAnswers() throws {
        let agent = try PresenceTestUser.askpassAgent("""
            printf 'agent asked: %s\\n' "$1" >&2
            printf '%s\\n' '\(PresenceTestUser.password)'
            """)
        let outcome = try #require(try user.runWithoutTerminal(
            worker, [Self.evaluate, "ask-secret:\(PresenceTestUser.password)"], environment: ["KEYCHAIN_ASKPASS": agent]))
        #expect(outcome.output == """
            \(Self.evaluate) -> ok
            ask-secret:\(PresenceTestUser.password) -> ok matches

            """, "\(outcome.errors)")
        #expect(outcome.errors.contains("agent asked: presence-worker \(Self.evaluate)\nPassword: "))
        #expect(outcome.errors.contains("agent asked: Application password: "))
    }

    @Test("UserPresence: an agent's output is read up to 4 KiB; more without a newline is refused, never taken as the password")
    func askpassAgentOutputIsBounded() throws {
        let agent = try PresenceTestUser.askpassAgent("head -c 5000 /dev/zero | tr '\\0' a")
        let outcome = try #require(try user.runWithoutTerminal(worker, [Self.evaluate], environment: ["KEYCHAIN_ASKPASS": agent]))
        // Unavailable: the agent is broken, which the context reports as no usable password check.
        #expect(outcome.output == "\(Self.evaluate) -> LAError -5\n", "\(outcome.errors)")
    }

    @Test("LocalAuthentication: a KEYCHAIN_ASKPASS agent that exits 1 gives LAError.userCancel, whatever it printed")
    func askpassAgentDeclines() throws {
        let agent = try PresenceTestUser.askpassAgent("printf '%s\\n' '\(PresenceTestUser.password)'; exit 1")
        let outcome = try #require(try user.runWithoutTerminal(worker, [Self.evaluate], environment: ["KEYCHAIN_ASKPASS": agent]))
        #expect(outcome.output == "\(Self.evaluate) -> LAError -2\n", "\(outcome.errors)")
    }

    @Test("LocalAuthentication: biometric and watch policies, an invalidated context and interactionNotAllowed fail without a prompt")
    func failuresWithoutPrompt() throws {
        let session = try user.startOnTerminal(worker, [
            "can:deviceOwnerAuthenticationWithBiometrics", "evaluate:deviceOwnerAuthenticationWithBiometrics",
            "evaluate:deviceOwnerAuthenticationWithWatch", "no-interaction", Self.evaluate,
            "new-context", "invalidate", Self.evaluate, "prove",
        ])
        let outcome = try session.finish()
        #expect(outcome.output == """
            can:deviceOwnerAuthenticationWithBiometrics -> false LAError -6
            evaluate:deviceOwnerAuthenticationWithBiometrics -> LAError -6
            evaluate:deviceOwnerAuthenticationWithWatch -> LAError -11
            no-interaction -> ok
            \(Self.evaluate) -> LAError -1004
            new-context -> ok
            invalidate -> ok
            \(Self.evaluate) -> LAError -10
            prove -> PresenceFailure cancelled

            """, "\(outcome.errors)")
        #expect(outcome.terminal.isEmpty, "nothing may be asked: \(outcome.terminal.debugDescription)")
    }

    @Test("LocalAuthentication: a context keeps its proof; later evaluations and SecItem's proveUserPresence do not prompt again")
    func keptProofAnswersWithoutPrompt() throws {
        let session = try user.startOnTerminal(worker, [Self.evaluate, "prove", Self.evaluate, "prove-silently", "no-interaction", "prove"])
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == """
            \(Self.evaluate) -> ok
            prove -> ok
            \(Self.evaluate) -> ok
            prove-silently -> ok
            no-interaction -> ok
            prove -> ok

            """, "\(outcome.errors)")
        #expect(count("Password: ", in: outcome.terminal) == 1)
    }

    @Test("LocalAuthentication: a new context reuses this process's recent proof within touchIDAuthenticationAllowableReuseDuration, and asks again without it")
    func reuseDurationSkipsThePrompt() throws {
        let session = try user.startOnTerminal(worker, [
            Self.evaluate, "new-context", "reuse:300", Self.evaluate, "new-context", Self.evaluate,
        ])
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        // The next prompt is the third evaluation's: the second reused the first's proof.
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == """
            \(Self.evaluate) -> ok
            new-context -> ok
            reuse:300 -> ok
            \(Self.evaluate) -> ok
            new-context -> ok
            \(Self.evaluate) -> ok

            """, "\(outcome.errors)")
        #expect(count("Password: ", in: outcome.terminal) == 2)
    }

    @Test("UserPresence: the application's reason cannot send control sequences to the terminal")
    func reasonIsShownWithoutControlCharacters() throws {
        let session = try user.startOnTerminal(worker, ["reason:\u{1B}]0;retitled\u{07}\u{1B}[2Jvisible", "prove"])
        try session.waitFor("?]0;retitled??[2Jvisible\r\n")
        try session.waitFor("Password: ")
        session.type(PresenceTestUser.password)
        let outcome = try session.finish()
        #expect(outcome.output == "reason:\u{1B}]0;retitled\u{07}\u{1B}[2Jvisible -> ok\nprove -> ok\n", "\(outcome.errors)")
        #expect(!outcome.terminal.contains("\u{1B}") && !outcome.terminal.contains("\u{07}"))
    }

    @Test("UserPresence: askSecret reads an application password on the terminal without echo")
    func askSecretOnTerminal() throws {
        let session = try user.startOnTerminal(worker, ["ask-secret:app secret 1"])
        try session.waitFor("Application password: ")
        session.type("app secret 1")
        let outcome = try session.finish()
        #expect(outcome.output == "ask-secret:app secret 1 -> ok matches\n", "\(outcome.errors)")
        #expect(!outcome.terminal.contains("app secret 1"))
    }

    @Test("UserPresence: a process killed at the prompt leaves the terminal echoing")
    func killedAtPromptRestoresEcho() throws {
        let session = try user.startOnTerminal(worker, [Self.evaluate])
        try session.waitFor("Password: ")
        #expect(!session.echoes)
        session.send(SIGTERM)
        let outcome = try session.finish()
        #expect(outcome.status == 128 + SIGTERM)
        #expect(session.echoes)
    }
}
