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

    init(module: String, helper: String, options: String = "", observerRunning keychainctl: String,
         as user: LoginTestUser) throws {
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
        let text = """
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
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o644])
        else { throw PresenceTestUserError.failed("cannot write \(file.path)") }
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
