import Foundation
import Testing
import TestSupport

/// `-w` as the last argument: the password is asked for twice on the terminal, without echo.
@Suite struct PromptTests {
    let keychainctl = Keychainctl()

    /// Answers the two prompts, each once it shows, as a user would.
    func answer(_ session: TerminalSession, _ first: String, _ second: String) throws {
        try session.waitFor("password data for new item: ")
        session.type(first)
        try session.waitFor("retype password for new item: ")
        session.type(second)
    }

    @Test func thePasswordIsAskedTwiceWithoutEcho() throws {
        let session = try keychainctl.onTerminal("add-generic-password", "-a", "alice", "-s", "example.com", "-w")
        try answer(session, "typed s3cr3t", "typed s3cr3t")
        let outcome = try session.finish()
        #expect(outcome.status == 0)
        #expect(outcome.terminal == "password data for new item: \r\nretype password for new item: \r\n")
        #expect(outcome.output.isEmpty && outcome.errors.isEmpty)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "typed s3cr3t\n")
    }

    @Test func differentAnswersAreAskedAgainThenFail() throws {
        let session = try keychainctl.onTerminal("add-internet-password", "-a", "bob", "-s", "example.com", "-w")
        for _ in 1...3 { try answer(session, "one", "two") }
        let outcome = try session.finish()
        #expect(outcome.status == 1)
        #expect(outcome.errors == Keychainctl.threeMismatches)
        #expect(!outcome.terminal.contains("one") && !outcome.terminal.contains("two"))
        #expect(try keychainctl("find-internet-password", "-a", "bob").status == 44)
    }

    @Test func aMismatchThenAMatchAdds() throws {
        let session = try keychainctl.onTerminal("add-generic-password", "-a", "alice", "-s", "example.com", "-w")
        try answer(session, "first", "typo")
        try answer(session, "second", "second")
        let outcome = try session.finish()
        #expect(outcome.status == 0)
        #expect(outcome.errors == "passwords don't match\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "second\n")
    }

    @Test func aValueAfterMinusWIsThePassword() throws {
        // As with getopt, -w takes the next argument even when it looks like an option; only
        // a -w with nothing after it asks.
        let session = try keychainctl.onTerminal("add-generic-password", "-w", "-U", "-a", "alice", "-s", "example.com")
        let outcome = try session.finish()
        #expect(outcome.status == 0)
        #expect(outcome.terminal.isEmpty)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "-U\n")
    }

    /// Ctrl-C, `kill`, Ctrl-\, a closed terminal, a user signal and an alarm end the prompt
    /// with 128 + the signal, and the terminal echoes again: otherwise the user's shell would
    /// stay silent.
    @Test(arguments: [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE])
    func aSignalAtThePromptRestoresEcho(_ signal: Int32) throws {
        let session = try keychainctl.onTerminal("add-generic-password", "-a", "alice", "-s", "example.com", "-w")
        try session.waitFor("password data for new item: ")
        #expect(!session.echoes, "the prompt turns echo off")
        session.send(signal)
        let outcome = try session.finish()
        #expect(outcome.status == 128 + signal)
        #expect(session.echoes)
        #expect(try keychainctl("find-generic-password", "-a", "alice").status == 44)
    }

    /// Stopped by a signal no program can catch (`kill -STOP`), then continued after a shell
    /// took the terminal back with echo on (`fg`): the prompt silences it again before the
    /// rest of the password is typed.
    @Test func continuedAfterAStopThePromptSilencesTheTerminalAgain() throws {
        let session = try keychainctl.onTerminal("add-generic-password", "-a", "alice", "-s", "example.com", "-w")
        try session.waitFor("password data for new item: ")
        session.press("se")
        session.send(SIGSTOP)
        usleep(100_000)
        session.setEcho(true)   // what the user's shell leaves while the job is stopped
        session.send(SIGCONT)
        let deadline = Date().addingTimeInterval(30)
        while session.echoes, Date() < deadline { usleep(10_000) }
        #expect(!session.echoes, "echo is off again once the command continues")
        session.type("cret9")
        try session.waitFor("retype password for new item: ")
        session.type("secret9")
        let outcome = try session.finish()
        #expect(outcome.status == 0)
        #expect(!outcome.terminal.contains("cret9"), "\(outcome.terminal)")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "secret9\n")
    }

    /// Ctrl-Z at the prompt: echo is on while the command is stopped, off again once it
    /// continues, and the prompt goes on. Run as a job of a shell with job control, as a user
    /// runs it: the kernel stops no process of a group without a parent in its session.
    @Test func ctrlZAtThePromptRestoresEchoWhileStopped() throws {
        let script = #"set -m; "$0" add-generic-password -a alice -s example.com -w; echo "stopped $?" >/dev/tty; read go; fg; echo "ended $?" >/dev/tty"#
        let session = try TerminalSession(
            executable: "/bin/sh", ["-c", script, keychainctl.program.executable.path],
            environment: ProgramProcess.environment(dataHome: keychainctl.dataHome))
        try session.waitFor("password data for new item: ")
        #expect(!session.echoes)
        session.press("\u{1A}")
        try session.waitFor("stopped 148")   // 128 + SIGTSTP
        #expect(session.echoes, "echo is on while the command is stopped")

        session.type("go")   // the shell's fg continues the command
        let deadline = Date().addingTimeInterval(30)
        while session.echoes, Date() < deadline { usleep(10_000) }
        #expect(!session.echoes, "echo is off again once the command continues")
        session.type("typed s3cr3t")
        try session.waitFor("retype password for new item: ")
        session.type("typed s3cr3t")
        try session.waitFor("ended 0")
        let outcome = try session.finish()
        #expect(!outcome.terminal.contains("s3cr3t"))
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "typed s3cr3t\n")
    }
}
