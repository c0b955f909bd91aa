import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// keychainctl as a container runs it: under a seccomp filter that refuses the kernel
/// keyring's system calls (as Docker's default profile does, made with Debian's
/// python3-seccomp), as a user id with no passwd entry, on a machine without
/// `/etc/machine-id`. An unlock then cannot reach the next process: every command must say
/// so, never report success it did not achieve, and a password file given to each process
/// must make the whole flow work.
@Suite(.enabled(if: ContainerSandbox.canRun, "needs root, setpriv and Debian's python3-seccomp (Scripts/test installs them)"))
struct ContainerTests {
    static let python = ContainerSandbox.python
    static let setpriv = ContainerSandbox.setpriv
    /// A user id that no passwd entry names.
    static let uid: uid_t = 54_321

    static let sandboxSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ContainerSandbox/without-keyring.py")

    /// A container's user: a home of its own, and the programs copied where it can run them.
    struct Container {
        let scratch = TestScratch.folder("container")
        var home: URL { scratch.appendingPathComponent("home") }
        var secrets: URL { scratch.appendingPathComponent("secrets") }
        let keychainctl: String
        let sandbox: String

        init() throws {
            keychainctl = try TestAccount.reachablePath(of: ProgramProcess("keychainctl"))
            for folder in [scratch, scratch.appendingPathComponent("programs")] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            for path in [scratch.path, scratch.deletingLastPathComponent().path, scratch.path + "/programs"] { chmod(path, 0o755) }
            sandbox = scratch.path + "/programs/without-keyring.py"
            try Data(contentsOf: ContainerTests.sandboxSource).write(to: URL(fileURLWithPath: sandbox))
            chmod(sandbox, 0o644)
            for folder in [home, secrets] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                chown(folder.path, ContainerTests.uid, ContainerTests.uid)
                chmod(folder.path, 0o700)
            }
        }

        /// Runs `keychainctl arguments...` as the container's user, under the filter; with
        /// `credentials`, `$CREDENTIALS_DIRECTORY` names the secrets folder.
        func run(_ arguments: String..., credentials: Bool = false, more: [String: String] = [:]) throws
            -> (status: Int32, output: String, errors: String)
        {
            var environment = [
                "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home.path,
                "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state",
                // No /etc/machine-id, as in most container images.
                "KEYCHAIN_MACHINE_ID_FILE": scratch.path + "/no-machine-id",
            ]
            if credentials { environment["CREDENTIALS_DIRECTORY"] = secrets.path }
            environment.merge(more) { $1 }
            return try SpawnedProcess.runToEnd(
                ContainerTests.setpriv,
                ["--reuid=\(ContainerTests.uid)", "--regid=\(ContainerTests.uid)", "--clear-groups",
                 ContainerTests.python, sandbox, keychainctl] + arguments,
                environment: environment, outputIn: scratch)
        }

        /// Writes a secret file as the container's orchestrator would: owned by the user.
        func writeSecret(_ name: String, _ contents: String, mode: mode_t = 0o400) throws {
            let path = secrets.appendingPathComponent(name).path
            unlink(path)
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            chown(path, ContainerTests.uid, ContainerTests.uid)
            chmod(path, mode)
        }
    }

    @Test("In a container without the kernel keyring, a keychain with a password works in every later process with a password file, and says clearly what to do without one (never a silent success)")
    func keychainWithPasswordAcrossProcessesWithoutTheKeyring() throws {
        let container = try Container()
        // The filter is in force: the keyring refuses the user (checked by the library's own
        // notice, which keychainctl shows with the log level asked for).
        let created = try container.run("create-keychain", "-p", "pw-vault", "vault")
        #expect(created.status == 0, "\(created)")
        #expect(created.errors.contains("locked for the commands that follow"), "\(created.errors)")
        #expect(created.errors.contains("keychain-password.vault"), "\(created.errors)")

        let locked = try container.run("add-generic-password", "-a", "deploy", "-s", "api.example.com", "-w", "s3cret", "vault")
        #expect(locked.status != 0, "\(locked)")
        #expect(locked.errors.contains("is locked"), "\(locked.errors)")
        #expect(locked.errors.contains("keychain-password.vault"), "\(locked.errors)")
        #expect(!locked.errors.contains("unlock-keychain"), "advises an unlock that cannot work: \(locked.errors)")

        // The right password, and no success claimed: the unlock would end with the command.
        let unlocked = try container.run("unlock-keychain", "-p", "pw-vault", "vault")
        #expect(unlocked.status == 1, "\(unlocked)")
        #expect(unlocked.errors.contains("the password is right, but the unlock cannot outlive this command"), "\(unlocked.errors)")
        let wrong = try container.run("unlock-keychain", "-p", "not-it", "vault")
        #expect(wrong.status == 51, "a wrong password is still errSecAuthFailed: \(wrong)")

        // With the password in a credential, each process opens the keychain at first use.
        try container.writeSecret("keychain-password.vault", "pw-vault\n")
        let added = try container.run("add-generic-password", "-a", "deploy", "-s", "api.example.com", "-w", "s3cret",
                                      "vault", credentials: true)
        #expect(added.status == 0, "\(added)")
        let found = try container.run("find-generic-password", "-a", "deploy", "-s", "api.example.com", "-w", "vault",
                                      credentials: true)
        #expect(found.status == 0 && found.output == "s3cret\n", "\(found)")
        #expect(try container.run("lock-keychain", "vault", credentials: true).status == 0)
        let again = try container.run("find-generic-password", "-a", "deploy", "-s", "api.example.com", "-w", "vault",
                                      credentials: true)
        #expect(again.output == "s3cret\n", "\(again)")
        let without = try container.run("find-generic-password", "-a", "deploy", "-s", "api.example.com", "-w", "vault")
        #expect(without.status != 0 && without.output.isEmpty, "\(without)")

        // A password file others may read is refused, with the reason, and opens nothing.
        try container.writeSecret("keychain-password.vault", "pw-vault\n", mode: 0o644)
        let exposed = try container.run("find-generic-password", "-a", "deploy", "-s", "api.example.com", "-w", "vault",
                                        credentials: true)
        #expect(exposed.status != 0 && exposed.output.isEmpty, "\(exposed)")
        #expect(exposed.errors.contains("mode 644"), "\(exposed.errors)")
        // So is one with another password.
        try container.writeSecret("keychain-password.vault", "pw-other\n")
        let other = try container.run("find-generic-password", "-a", "deploy", "-s", "api.example.com", "-w", "vault",
                                      credentials: true)
        #expect(other.status != 0 && other.output.isEmpty, "\(other)")
        #expect(other.errors.contains("another password than the keychain's"), "\(other.errors)")
    }

    @Test("In a container, KEYCHAIN_PASSWORD_FILE opens the login keychain in every process, and the password itself is never taken from the environment")
    func loginKeychainFromAPasswordFile() throws {
        let container = try Container()
        #expect(try container.run("create-keychain", "-p", "pw-login", "login").status == 0)
        try container.writeSecret("login-password", "pw-login")
        let file = ["KEYCHAIN_PASSWORD_FILE": container.secrets.path + "/login-password"]
        let added = try container.run("add-generic-password", "-a", "ci", "-s", "example.com", "-w", "t0ken", more: file)
        #expect(added.status == 0, "\(added)")
        let found = try container.run("find-generic-password", "-a", "ci", "-s", "example.com", "-w", more: file)
        #expect(found.output == "t0ken\n", "\(found)")
        // A variable holding the password, rather than naming its file, is not read as one.
        let inline = try container.run("find-generic-password", "-a", "ci", "-s", "example.com", "-w",
                                       more: ["KEYCHAIN_PASSWORD_FILE": "pw-login"])
        #expect(inline.status != 0 && inline.output.isEmpty, "\(inline)")
        #expect(inline.errors.contains("absolute path"), "\(inline.errors)")
    }
}

/// What running as a container needs here.
enum ContainerSandbox {
    static let python = "/usr/bin/python3"
    static let setpriv = "/usr/bin/setpriv"

    static var canRun: Bool {
        geteuid() == 0 && access(setpriv, X_OK) == 0 && access(python, X_OK) == 0
            && (try? SpawnedProcess(python, ["-c", "import seccomp"], environment: [:]).wait().status) == 0
    }
}
