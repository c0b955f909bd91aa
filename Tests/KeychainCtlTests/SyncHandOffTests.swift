import ArgumentParser
import Foundation
import KeychainCtlCommands
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `keychainctl sync ...` runs in keychain-sync, a program of its own beside keychainctl, so
/// that keychainctl stays small and quick to start: keychainctl parses the sync command line
/// (its help and usage errors are its own) and then becomes keychain-sync with the same
/// arguments. The sync commands' own behaviour is KeychainSyncTests' part, through keychainctl.
@Suite struct SyncHandOffTests {
    /// Mangled-name and symbol prefixes of the modules only keychain-sync may carry: the sync
    /// engine, NIO, the PostgreSQL client, and NIOSSL's BoringSSL (a second copy beside
    /// swift-crypto's).
    static let syncOnlyCode = ["12KeychainSync", "7NIOCore", "11PostgresNIO", "CNIOBoringSSL_"]

    /// keychainctl links none of the sync engine's code; keychain-sync, built from the same
    /// sources, carries all of it (which shows that the scan finds such code where it is).
    @Test func keychainctlCarriesNoneOfTheSyncEngine() throws {
        let keychainctl = try Data(contentsOf: ProgramProcess("keychainctl").executable)
        let sync = try Data(contentsOf: ProgramProcess("keychain-sync").executable)
        for prefix in Self.syncOnlyCode {
            #expect(keychainctl.range(of: Data(prefix.utf8)) == nil, "keychainctl holds \(prefix)")
            #expect(sync.range(of: Data(prefix.utf8)) != nil, "keychain-sync lacks \(prefix)")
        }
    }

    /// keychainctl runs its commands synchronously and tells the asynchronous ones, which it
    /// hands over, by their types (a cast to a protocol would cost every start a scan of the
    /// program's conformance records): so every asynchronous command anywhere in its command
    /// tree must be a sync subcommand, or it would never run.
    @Test func everyAsynchronousCommandIsASyncSubcommand() {
        var pending: [any ParsableCommand.Type] = [KeychainCtl.self]
        var asynchronous: [String] = []
        var seen = 0
        while let command = pending.popLast() {
            seen += 1
            pending += command.configuration.subcommands
            if command is any AsyncParsableCommand.Type {
                let name = command.configuration.commandName ?? "\(command)"
                asynchronous.append(name)
                #expect(SyncCommand<SyncHandOff>.configuration.subcommands.contains { $0 == command },
                        "\(name) is asynchronous but not a sync subcommand")
            }
        }
        #expect(seen > 20)
        #expect(asynchronous.sorted() == ["approve", "join", "leave", "remove", "run", "setup", "status"])
    }

    /// The hand-over is an exec: the same process (signals sent to it reach the program doing
    /// the work), no signal blocked, the arguments as typed (a value with a space stays one
    /// argument), standard input passed on, and the program's exit status is keychainctl's.
    @Test func syncBecomesTheProgramBesideKeychainctlWithTheSameArguments() throws {
        let folder = TestScratch.folder("sync-hand-off")
        let keychainctl = try ProgramProcess("keychainctl").installed(in: folder, entitlements: nil)
        let stand = folder.appendingPathComponent("keychain-sync")
        try """
            #!/bin/sh
            echo "pid $$"
            # Read by the shell itself: while it waits for a child such as grep, the shell
            # blocks every signal, and the child would read that mask instead of the one exec gave.
            while IFS= read -r line; do case "$line" in SigBlk:*) echo "$line" ;; esac; done < /proc/$$/status
            for argument in "$@"; do echo "argument <$argument>"; done
            echo "input <$(cat)>"
            exit 7

            """.write(to: stand, atomically: true, encoding: .utf8)
        chmod(stand.path, 0o755)
        let files = ["in", "out", "err"].map { folder.appendingPathComponent($0) }
        try Data("typed\n".utf8).write(to: files[0])
        let process = try SpawnedProcess(
            keychainctl.executable.path, ["sync", "status", "--offline", "--keychain", "two words"],
            environment: ProgramProcess.environment(dataHome: folder.appendingPathComponent("data")),
            stdin: .open(files[0].path, O_RDONLY),
            stdout: .open(files[1].path, O_WRONLY | O_CREAT | O_TRUNC),
            stderr: .open(files[2].path, O_WRONLY | O_CREAT | O_TRUNC))
        let termination = process.wait()
        let output = try String(contentsOf: files[1], encoding: .utf8)
        #expect(termination.status == 7 && !termination.signalled)
        #expect(try String(contentsOf: files[2], encoding: .utf8) == "")
        #expect(output == """
            pid \(process.pid)
            SigBlk:\t0000000000000000
            argument <sync>
            argument <status>
            argument <--offline>
            argument <--keychain>
            argument <two words>
            input <typed>

            """)
    }

    /// Without keychain-sync beside it, a sync command fails with status 1 and says which
    /// program is missing and where it belongs; the help, keychainctl's own, still shows, and
    /// a usage error is still found before any hand-over.
    @Test func aMissingSyncProgramIsNamed() throws {
        let folder = TestScratch.folder("sync-missing")
        let keychainctl = try ProgramProcess("keychainctl").installed(in: folder, entitlements: nil)
        let dataHome = folder.appendingPathComponent("data")
        let status = try keychainctl.run(["sync", "status"], dataHome: dataHome)
        #expect(status.status == 1)
        #expect(status.output == "")
        #expect(status.errors == "keychainctl: sync: \(folder.path)/keychain-sync is missing: keychainctl's sync commands "
                + "run in the program keychain-sync, which must be installed in the same folder as keychainctl\n")
        let help = try keychainctl.run(["sync", "run", "--help"], dataHome: dataHome)
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: keychainctl sync run"))
        let usage = try keychainctl.run(["sync", "run", "--interval", "0"], dataHome: dataHome)
        #expect(usage.status == 2)
        #expect(usage.errors.contains("--interval is 1 to 86400 seconds."))
    }
}
