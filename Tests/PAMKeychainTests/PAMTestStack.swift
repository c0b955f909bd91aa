import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A PAM service of the test's own in /etc/pam.d, stacked as Debian's common-auth,
/// common-password and common-session stack their modules (pam_unix, then the "Additional"
/// block), with pam_keychain added where the documentation says to add it, and driven through
/// pamtester as root, as login or sshd drive their stacks. ``remove()`` deletes the file.
///
/// Its session stack also runs an observer after pam_keychain at the session's opening
/// (pam_exec): a program run as the user that reads an item of the login keychain, so that a
/// test sees what a process of the user sees while the session is open.
struct PAMTestStack {
    let service: String
    let file: URL
    /// What the observer saw at each session opening: keychainctl's output and its exit status.
    let observations: URL
    /// A folder of the test's, removed with the service file.
    let scratchFolder: URL

    /// The item the observer reads.
    static let itemService = "pam-keychain-test"
    static let account = "me"

    /// With `includes`, a folder of common-auth, common-password and common-session (such as
    /// ``debianStack(profile:module:helper:)`` makes), the service includes those files rather
    /// than stacking its own lines; the observer comes after them.
    init(module: String, helper: String, options: String = "", includes: URL? = nil,
         observerRunning keychainctl: String, as user: LoginTestUser) throws {
        service = "swift-keychain-test-\(UUID().uuidString.prefix(8).lowercased())"
        file = URL(fileURLWithPath: "/etc/pam.d/\(service)")
        scratchFolder = TestScratch.folder("pam-stack")
        try FileManager.default.createDirectory(at: scratchFolder, withIntermediateDirectories: true)
        observations = scratchFolder.appendingPathComponent("observations")
        let observer = scratchFolder.appendingPathComponent("observe")
        let environment = user.environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        // Only where the keychain exists: keychainctl would create a login keychain without a
        // password, where a test checks that the module made none.
        let database = user.keychainsFolder.appendingPathComponent("login.keychain-db").path
        try Data("""
            #!/bin/sh
            if [ ! -e \(database) ]; then echo "no login keychain" >> \(observations.path); exit 0; fi
            /usr/bin/setpriv --reuid=\(user.uid) --regid=\(user.gid) --clear-groups -- /usr/bin/env -i \(environment) \
            \(keychainctl) find-generic-password -s \(Self.itemService) -a \(Self.account) -w >> \(observations.path) 2>&1
            echo "status $?" >> \(observations.path)

            """.utf8).write(to: observer)
        chmod(observer.path, 0o755)
        let keychain = "\(module) helper=\(helper)\(options.isEmpty ? "" : " " + options)"
        var text = """
            # A test service of swift-keychain's PAMKeychainTests, removed when the test ends.
            auth\t[success=1 default=ignore]\tpam_unix.so nullok
            auth\trequisite\tpam_deny.so
            auth\trequired\tpam_permit.so
            auth\toptional\t\(keychain)
            password\t[success=1 default=ignore]\tpam_unix.so obscure yescrypt
            password\trequisite\tpam_deny.so
            password\trequired\tpam_permit.so
            password\toptional\t\(keychain)
            session\t[default=1]\tpam_permit.so
            session\trequisite\tpam_deny.so
            session\trequired\tpam_permit.so
            session\trequired\tpam_unix.so
            session\toptional\t\(keychain)
            session\toptional\tpam_exec.so type=open_session \(observer.path)

            """
        if let includes {
            text = """
                # A test service of swift-keychain's PAMKeychainTests, removed when the test ends.
                auth\tinclude\t\(includes.appendingPathComponent("common-auth").path)
                password\tinclude\t\(includes.appendingPathComponent("common-password").path)
                session\tinclude\t\(includes.appendingPathComponent("common-session").path)
                session\toptional\tpam_exec.so type=open_session \(observer.path)

                """
        }
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o644])
        else { throw PresenceTestUserError.failed("cannot write \(file.path)") }
    }

    /// This machine's common-auth, common-password and common-session as Debian's
    /// pam-auth-update writes them with `profile` (a /usr/share/pam-configs file) enabled:
    /// made by pam-auth-update itself, in a copy of /etc/pam.d, /var/lib/pam and
    /// /usr/share/pam-configs (`--root`), so that the system's files are never touched. The
    /// lines name `pam_keychain.so` as an installed module; here they name `module` and
    /// `helper`, which are not installed, and pam_systemd's line is left out. Returns the
    /// folder of the three files.
    static func debianStack(profile: String, module: String, helper: String) throws -> URL {
        let root = TestScratch.folder("pam-auth-update-root")
        let folders = ["etc/pam.d", "var/lib/pam", "usr/share/pam-configs"]
        for folder in folders {
            let copy = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            for entry in try FileManager.default.contentsOfDirectory(atPath: "/" + folder)
            where folder != "etc/pam.d" || entry.hasPrefix("common-") {
                try FileManager.default.copyItem(atPath: "/\(folder)/\(entry)", toPath: copy.appendingPathComponent(entry).path)
            }
        }
        try Data(profile.utf8).write(to: root.appendingPathComponent("usr/share/pam-configs/keychain"))
        let enabled = try SpawnedProcess.runToEnd(
            "/usr/sbin/pam-auth-update", ["--root", root.path, "--enable", "keychain"],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive"], outputIn: root)
        guard enabled.status == 0 else { throw PresenceTestUserError.failed("pam-auth-update: \(enabled.output)\(enabled.errors)") }
        let stack = root.appendingPathComponent("etc/pam.d")
        for group in ["auth", "password", "session"] {
            let file = stack.appendingPathComponent("common-\(group)")
            // pam_systemd left out: it would register a logind session for the test user (and
            // start its user manager) on a machine that runs systemd.
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.contains("pam_systemd.so") && !$0.hasPrefix("#") ? "# (left out by the test) " + $0 : String($0) }
            try lines.joined(separator: "\n").replacingOccurrences(of: "pam_keychain.so", with: "\(module) helper=\(helper)")
                .write(to: file, atomically: true, encoding: .utf8)
        }
        return stack
    }

    /// Runs pamtester on the test user with `operations` (pamtester's names, such as
    /// `authenticate` or `chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)`), the answers to PAM's prompts
    /// on standard input, one a line.
    func pamtester(_ operations: [String], answers: [String]) throws -> ProgramProcess.Outcome {
        let input = answers.map { $0 + "\n" }.joined()
        let outcome = try TestAccount.run("/usr/bin/pamtester", ["-v", service, LoginTestUser.name] + operations,
                                          environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"],
                                          input: input, timeout: 120)
        guard let outcome else { throw PresenceTestUserError.failed("pamtester \(operations) did not end within 120 s") }
        return outcome
    }

    /// What the observer saw, one entry per session opening: the item's secret or keychainctl's
    /// error, then `status <n>`; or `no login keychain`.
    func observed() -> String {
        (try? String(contentsOf: observations, encoding: .utf8)) ?? ""
    }

    func remove() {
        unlink(file.path)
        try? FileManager.default.removeItem(at: scratchFolder)
    }
}
