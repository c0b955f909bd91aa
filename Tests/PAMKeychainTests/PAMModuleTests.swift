import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TestTags

/// pam_keychain through the system's real PAM stack: a test user with a home of its own, a
/// service file of the test's own (PAMTestStack) stacking pam_unix and the built module, driven
/// by pamtester as login drives its stack. What the user's processes see is checked with
/// keychainctl run as the user; what an attacker sees, with keychainctl on a copy of the home.
@Suite(.serialized, .enabled(if: LoginTestUser.canBeMade, "only root can make the test user and write a PAM service file"))
struct PAMModuleTests {
    let user: LoginTestUser
    let keychainctl: String
    let helper: String
    let module: String

    static let secret = "item-secret-\(UUID().uuidString)"

    /// pam_keychain.so as users build it (Scripts/build-pam-module, the C compiler alone), once
    /// per process, in the scratch folder.
    static let builtModule: Result<String, PresenceTestUserError> = Result {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = TestScratch.folder("pam-module")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let module = folder.appendingPathComponent("pam_keychain.so")
        let built = try SpawnedProcess.runToEnd(root.appendingPathComponent("Scripts/build-pam-module").path, [module.path],
                                                environment: ["PATH": "/usr/local/bin:/usr/bin:/bin"], outputIn: folder)
        guard built.status == 0 else { throw PresenceTestUserError.failed("Scripts/build-pam-module: \(built.errors)") }
        return module.path
    }.mapError { $0 as? PresenceTestUserError ?? .failed("\($0)") }

    init() throws {
        try #require(access("/usr/bin/pamtester", X_OK) == 0, "pamtester is missing (Scripts/test installs it)")
        user = try LoginTestUser.prepared()
        keychainctl = try user.reachablePath(of: ProgramProcess("keychainctl"))
        helper = try user.reachablePath(of: ProgramProcess("keychain-pam-helper"))
        module = try Self.builtModule.get()
        try user.reset(keychainctl: keychainctl)
    }

    // MARK: - What the user's processes see

    /// Runs keychainctl as the user.
    func keychainctl(_ arguments: [String], input: String = "") throws -> ProgramProcess.Outcome {
        try #require(try user.run(keychainctl, arguments, input: input), "keychainctl \(arguments) hung")
    }

    /// The item's secret, read by a new process of the user: only while the keychain is unlocked.
    func readItem() throws -> ProgramProcess.Outcome {
        try keychainctl(["find-generic-password", "-s", PAMTestStack.itemService, "-a", PAMTestStack.account, "-w"])
    }

    func addItem() throws {
        let added = try keychainctl(["add-generic-password", "-s", PAMTestStack.itemService, "-a", PAMTestStack.account,
                                     "-w", Self.secret])
        try #require(added.status == 0, "\(added.errors)")
    }

    /// Whether `password` opens the login keychain (unlock-keychain, which leaves it unlocked).
    func opens(with password: String) throws -> Bool {
        let unlocked = try keychainctl(["unlock-keychain", "--password-stdin", "login"], input: password)
        #expect([0, 51].contains(unlocked.status), "\(unlocked.errors)")
        return unlocked.status == 0
    }

    func lock() throws {
        let locked = try keychainctl(["lock-keychain", "login"])
        try #require(locked.status == 0, "\(locked.errors)")
    }

    /// The observer's entry for a session in which the keychain was unlocked, and for one in
    /// which it was locked (keychainctl's exit status 36: errSecInteractionNotAllowed).
    static let sawUnlocked = "\(secret)\nstatus 0\n"
    static let sawLocked = """
        keychainctl: SecItemCopyMatching: User interaction is not allowed.
        keychainctl: the keychain login is locked; unlock it with: keychainctl unlock-keychain login
        status 36

        """

    /// A login keychain made by a first login with `password`, holding the item, locked.
    func keychainFromFirstLogin(_ password: String, stack: PAMTestStack) throws {
        try user.setPassword(password)
        let login = try stack.pamtester(["authenticate", "open_session"], answers: [password])
        try #require(login.status == 0, "\(login.output)\(login.errors)")
        try addItem()
        try lock()
    }

    func stack(_ options: String = "") throws -> PAMTestStack {
        try PAMTestStack(module: module, helper: helper, options: options, observerRunning: keychainctl, as: user)
    }

    // MARK: - Tests

    @Test("pam_keychain: the module needs libc alone: no Swift runtime, no libpam link, loaded into login or sshd")
    func moduleNeedsLibcAlone() throws {
        let folder = TestScratch.folder("readelf")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let dynamic = try SpawnedProcess.runToEnd("/usr/bin/readelf", ["--dynamic", "--dyn-syms", "--wide", module],
                                                  environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"], outputIn: folder)
        try #require(dynamic.status == 0, "\(dynamic.errors)")
        let needed = dynamic.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.count == 1 && needed[0].hasSuffix("[libc.so.6]"), "\(needed)")
        #expect(!dynamic.output.lowercased().contains("swift"))
        // The entry points libpam looks up, and no other global function.
        let exported = dynamic.output.split(separator: "\n").filter { $0.contains(" FUNC ") && $0.contains(" GLOBAL ")
            && !$0.contains(" UND ") }.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(Set(exported) == ["pam_sm_authenticate", "pam_sm_setcred", "pam_sm_open_session", "pam_sm_close_session",
                                  "pam_sm_chauthtok"], "\(exported)")
    }

    @Test("pam_keychain: the first login creates the login keychain with the login password: locked, only that password opens it")
    func firstLoginCreatesKeychain() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try user.setPassword(password)
        #expect(!FileManager.default.fileExists(atPath: user.keychainsFolder.path))

        let login = try stack.pamtester(["authenticate", "open_session"], answers: [password])
        #expect(login.status == 0, "\(login.output)\(login.errors)")
        // Made by the user's process, private to the user.
        let database = user.keychainsFolder.appendingPathComponent("login.keychain-db")
        var status = stat()
        try #require(lstat(database.path, &status) == 0, "no login keychain after the first login")
        #expect(status.st_uid == user.uid && status.st_mode & 0o777 == 0o600)
        // Unlocked for the user's other processes: an item goes in and comes out without a password.
        try addItem()
        #expect(try readItem().output == Self.secret + "\n")
        #expect(stack.observed().hasSuffix("status 44\n"), "the observer ran before the item existed: \(stack.observed())")

        // Locked, it has a password: not opened without one or with another, opened with the login password.
        try lock()
        let withoutPassword = try keychainctl(["unlock-keychain", "-u", "login"])
        #expect(withoutPassword.status != 0, "a keychain the first login made opened without a password")
        #expect(try !opens(with: "not-" + password))
        #expect(try readItem().status == 36)
        #expect(try opens(with: password))
        #expect(try readItem().output == Self.secret + "\n")
    }

    @Test("pam_keychain: first logins at the same moment make one login keychain, with the login password", .tags(.slow))
    func simultaneousFirstLogins() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try user.setPassword(password)
        let logins = 4
        let outcomes = Mutex<[ProgramProcess.Outcome]>([])
        DispatchQueue.concurrentPerform(iterations: logins) { _ in
            if let outcome = try? stack.pamtester(["authenticate", "open_session"], answers: [password]) {
                outcomes.withLock { $0.append(outcome) }
            }
        }
        let finished = outcomes.withLock { $0 }
        #expect(finished.count == logins)
        for outcome in finished { #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)") }
        // Every login saw its session's keychain unlocked (the item is not there yet: status 44).
        #expect(stack.observed().components(separatedBy: "status 44\n").count - 1 == logins, "\(stack.observed())")
        try lock()
        #expect(try keychainctl(["unlock-keychain", "-u", "login"]).status != 0, "a keychain without a password was made")
        #expect(try !opens(with: "not-" + password))
        #expect(try opens(with: password))
    }

    @Test("pam_keychain: a login keychain that has no password is given the login password at login, its items kept")
    func loginSetsPasswordOnPasswordlessKeychain() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        // A program's first use made the login keychain, without a password.
        try addItem()
        try lock()
        #expect(try keychainctl(["unlock-keychain", "-u", "login"]).status == 0, "the keychain has a password already")
        let password = LoginTestUser.newPassword()
        try user.setPassword(password)

        let session = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [password])
        #expect(session.status == 0, "\(session.output)\(session.errors)")
        #expect(stack.observed() == Self.sawUnlocked)
        // Locked at the session's end, it now needs the login password.
        #expect(try readItem().status == 36)
        #expect(try keychainctl(["unlock-keychain", "-u", "login"]).status != 0)
        #expect(try !opens(with: "not-" + password))
        #expect(try opens(with: password))
        #expect(try readItem().output == Self.secret + "\n")
    }

    @Test("pam_keychain: a login unlocks the login keychain for the session's processes and the session's end locks it")
    func loginUnlocksLogoutLocks() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try keychainFromFirstLogin(password, stack: stack)
        try? FileManager.default.removeItem(at: stack.observations)
        #expect(try readItem().status == 36)

        let session = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [password])
        #expect(session.status == 0, "\(session.output)\(session.errors)")
        // While the session was open, a process of the user read the item; once it closed, none can.
        #expect(stack.observed() == Self.sawUnlocked)
        #expect(try readItem().status == 36)
    }

    @Test("pam_keychain: a session opened without a typed password (an SSH key, a fingerprint) leaves the keychain locked, and opens")
    func sessionWithoutPasswordLeavesKeychainLocked() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try keychainFromFirstLogin(password, stack: stack)
        try? FileManager.default.removeItem(at: stack.observations)

        // No authenticate step: the stack's auth never saw a password, as with a key or a finger.
        let session = try stack.pamtester(["open_session", "close_session"], answers: [])
        #expect(session.status == 0, "\(session.output)\(session.errors)")
        #expect(stack.observed() == Self.sawLocked)
        #expect(try readItem().status == 36)
    }

    @Test("pam_keychain: a keychain unlocked before the login (by hand, or by another session) stays unlocked after the session's end")
    func sessionLocksOnlyWhatItUnlocked() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try keychainFromFirstLogin(password, stack: stack)
        try? FileManager.default.removeItem(at: stack.observations)
        #expect(try opens(with: password))

        let session = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [password])
        #expect(session.status == 0, "\(session.output)\(session.errors)")
        #expect(stack.observed() == Self.sawUnlocked)
        #expect(try readItem().output == Self.secret + "\n", "the session locked a keychain it had not unlocked")
    }

    @Test("pam_keychain: a wrong login password unlocks nothing; a keychain whose password is not the login password stays locked and the login goes on", .tags(.slow))
    func wrongPasswordUnlocksNothing() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try keychainFromFirstLogin(password, stack: stack)
        try? FileManager.default.removeItem(at: stack.observations)

        let wrong = try stack.pamtester(["authenticate", "open_session"], answers: ["not-" + password])
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains("Authentication failure"), "\(wrong.errors)")
        #expect(try readItem().status == 36)

        // The administrator sets another login password: the keychain keeps its own.
        let other = LoginTestUser.newPassword()
        try user.setPassword(other)
        let login = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [other])
        #expect(login.status == 0, "the login must not fail: \(login.output)\(login.errors)")
        #expect(login.output.contains("Your login keychain's password is not your login password"), "\(login.output)")
        #expect(login.output.contains("keychainctl set-keychain-password login"))
        #expect(stack.observed() == Self.sawLocked)
        #expect(try readItem().status == 36)
        #expect(try !opens(with: other))
        #expect(try opens(with: password))
    }

    @Test("pam_keychain: passwd changes the login keychain's password with the login password; the old one opens nothing, the next login unlocks")
    func passwdChangesKeychainPassword() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let old = LoginTestUser.newPassword()
        let new = LoginTestUser.newPassword()
        try keychainFromFirstLogin(old, stack: stack)

        // As passwd asks a user: the current password, then the new one twice.
        let change = try stack.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], answers: [old, new, new])
        #expect(change.status == 0, "\(change.output)\(change.errors)")
        // Locked before, locked after.
        #expect(try readItem().status == 36)
        #expect(try !opens(with: old))
        #expect(try opens(with: new))
        #expect(try readItem().output == Self.secret + "\n")
        try lock()

        try? FileManager.default.removeItem(at: stack.observations)
        let login = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [new])
        #expect(login.status == 0, "\(login.output)\(login.errors)")
        #expect(stack.observed() == Self.sawUnlocked)
    }

    @Test("pam_keychain: passwd leaves alone a keychain whose password is not the old login password, and says how to change it", .tags(.slow))
    func passwdLeavesOtherPasswordAlone() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let login = LoginTestUser.newPassword()
        let own = LoginTestUser.newPassword()
        let new = LoginTestUser.newPassword()
        try keychainFromFirstLogin(login, stack: stack)
        let set = try keychainctl(["set-keychain-password", "-o", login, "-p", own, "login"])
        try #require(set.status == 0, "\(set.errors)")
        try lock()

        let change = try stack.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], answers: [login, new, new])
        #expect(change.status == 0, "the login password must change: \(change.output)\(change.errors)")
        #expect(change.output.contains("was not the old login password, so it was left as it is"), "\(change.output)")
        #expect(change.output.contains("keychainctl set-keychain-password login"))
        #expect(try !opens(with: new))
        #expect(try opens(with: own))

        // root changing the user's password gives no old one: the keychain is left as it is too.
        try lock()
        let byRootPassword = LoginTestUser.newPassword()
        let byRoot = try stack.pamtester(["chauthtok"], answers: [byRootPassword, byRootPassword])
        #expect(byRoot.status == 0, "\(byRoot.output)\(byRoot.errors)")
        #expect(try !opens(with: byRootPassword))
        #expect(try opens(with: own))
    }

    @Test("pam_keychain: a helper that hangs is killed after helper_wait seconds, and the login goes on")
    func hangingHelperNeverHoldsTheLogin() throws {
        let folder = TestScratch.folder("hanging-helper")
        // The helper writes its pid as the user, in a folder of theirs; it is in root's.
        let pidFolder = folder.appendingPathComponent("pid")
        try FileManager.default.createDirectory(at: pidFolder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        chown(pidFolder.path, user.uid, user.gid)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = pidFolder.appendingPathComponent("pid")
        let hanging = folder.appendingPathComponent("hanging-helper")
        try Data("#!/bin/sh\necho $$ > \(pidFile.path)\nexec sleep 300\n".utf8).write(to: hanging)
        chmod(hanging.path, 0o755)
        let stack = try PAMTestStack(module: module, helper: hanging.path, options: "helper_wait=1",
                                     observerRunning: keychainctl, as: user)
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try user.setPassword(password)

        let started = Date()
        let login = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [password])
        #expect(login.status == 0, "\(login.output)\(login.errors)")
        // Well under the helper's 300 s: the module waited its second, then killed it.
        #expect(Date().timeIntervalSince(started) < 60)
        let pid = try #require(Int32(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the hanging helper \(pid) still runs")
        #expect(stack.observed() == "no login keychain\n")
    }

    @Test("pam_keychain: a helper that someone other than root could have replaced is never given the password",
          arguments: ["group-writable", "owned by the user", "in a folder of the user's", "in a folder others may write"])
    func untrustedHelperIsNotRun(variant: String) throws {
        let root = TestScratch.folder("untrusted-helper")
        let folder = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        chmod(folder.path, 0o755)
        defer { try? FileManager.default.removeItem(at: root) }
        let copy = folder.appendingPathComponent("keychain-pam-helper")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: helper), to: copy)
        chmod(copy.path, 0o755)
        switch variant {
        case "group-writable": chmod(copy.path, 0o775)
        case "owned by the user": chown(copy.path, user.uid, user.gid)
        case "in a folder of the user's": chown(folder.path, user.uid, user.gid)
        default: chmod(folder.path, 0o777)
        }
        let stack = try PAMTestStack(module: module, helper: copy.path, observerRunning: keychainctl, as: user)
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try user.setPassword(password)

        let login = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [password])
        #expect(login.status == 0, "\(login.output)\(login.errors)")
        // Not run: no first login's keychain.
        #expect(stack.observed() == "no login keychain\n")
        #expect(!FileManager.default.fileExists(atPath: user.keychainsFolder.path))
    }

    /// The pam-auth-update profile that the documentation (The login keychain at login) shows.
    static func documentedProfile() throws -> String {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Security/Security.docc/LoginKeychainAtLogin.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let start = try #require(text.range(of: "Name: swift-keychain"), "no pam-auth-update profile in \(article.path)")
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        return String(text[start.lowerBound..<end.lowerBound])
    }

    @Test("pam_keychain: keychain-pam-helper --install puts the helper, the module and the documented pam-auth-update profile in place; pam-auth-update, run on a copy of this machine's PAM files, makes a stack whose login unlocks, passwd changes the password and logout locks",
          .tags(.slow))
    func installedDebianStackWorks() throws {
        try #require(access("/usr/sbin/pam-auth-update", X_OK) == 0, "pam-auth-update is missing (libpam-runtime)")
        // Installed into a staging folder (--root) rather than the system's folders.
        let root = TestScratch.folder("install-root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        let installing = try SpawnedProcess.runToEnd(helper, ["--install", "--module", module, "--root", root.path],
                                                     environment: ["PATH": "/usr/bin:/bin"], outputIn: root)
        try #require(installing.status == 0, "\(installing.errors)")
        #expect(installing.output.contains("run: pam-auth-update --enable keychain"), "\(installing.output)")
        let installedHelper = root.path + "/usr/local/libexec/swift-keychain/keychain-pam-helper"
        let securityFolder = try #require(installing.output.split(separator: "\n").first { $0.hasSuffix("/pam_keychain.so") })
        let installedModule = String(securityFolder.dropFirst("installed ".count))
        #expect(FileManager.default.contentsEqual(atPath: installedHelper, andPath: helper))
        #expect(FileManager.default.contentsEqual(atPath: installedModule, andPath: module))
        for (path, mode) in [(installedHelper, 0o755), (installedModule, 0o644)] {
            var status = stat()
            #expect(stat(path, &status) == 0 && status.st_uid == 0 && Int(status.st_mode & 0o7777) == mode, "\(path)")
        }
        let profile = try String(contentsOfFile: root.path + "/usr/share/pam-configs/keychain", encoding: .utf8)
        #expect(profile == (try Self.documentedProfile()), "the installed profile is not the one the documentation shows")

        let includes = try PAMTestStack.debianStack(profile: profile, module: installedModule, helper: installedHelper)
        // Each group has the module's line after pam_unix's.
        for group in ["auth", "password", "session"] {
            let lines = try String(contentsOf: includes.appendingPathComponent("common-\(group)"), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }
            let unixLine = try #require(lines.firstIndex { $0.contains("pam_unix.so") }, "common-\(group): \(lines)")
            let moduleLine = try #require(lines.firstIndex { $0.contains(installedModule) }, "common-\(group) lacks the module: \(lines)")
            #expect(unixLine < moduleLine && lines[moduleLine].hasPrefix("\(group)\toptional\t"), "\(lines[moduleLine])")
        }
        let stack = try PAMTestStack(module: installedModule, helper: installedHelper, includes: includes,
                                     observerRunning: keychainctl, as: user)
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let old = LoginTestUser.newPassword()
        let new = LoginTestUser.newPassword()
        try keychainFromFirstLogin(old, stack: stack)
        let change = try stack.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], answers: [old, new, new])
        #expect(change.status == 0, "\(change.output)\(change.errors)")
        try? FileManager.default.removeItem(at: stack.observations)

        let session = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [new])
        #expect(session.status == 0, "\(session.output)\(session.errors)")
        #expect(stack.observed() == Self.sawUnlocked)
        #expect(try readItem().status == 36)
        #expect(try !opens(with: old))
        #expect(try opens(with: new))
    }

    @Test("pam_keychain: keychain-pam-helper --install refuses a module that SwiftPM linked with the Swift runtime")
    func installRefusesSwiftLinkedModule() throws {
        let root = TestScratch.folder("install-refused")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // The helper itself is such a file: built by SwiftPM, it needs libswiftCore.
        let refused = try SpawnedProcess.runToEnd(helper, ["--install", "--module", helper, "--root", root.path],
                                                  environment: ["PATH": "/usr/bin:/bin"], outputIn: root)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("is not a module built by Scripts/build-pam-module"), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: root.path + "/usr"), "nothing may be installed")
    }

    @Test("keychain-pam-helper: input past two passwords of 4096 bytes, not NUL-terminated, or with another count of passwords is refused with a line saying so, never echoing it; no keychain is made")
    func helperRefusesOversizedOrMalformedInput() throws {
        defer { try? user.reset(keychainctl: keychainctl) }
        let huge = String(repeating: "h", count: 3 * 4096) + "\0"
        let tooLong = try #require(try user.run(helper, ["unlock"], input: huge))
        #expect(tooLong.status == 1)
        #expect(tooLong.output == "more input than two passwords of 4096 bytes\n", "\(tooLong.output)")
        for (command, input) in [("unlock", "unterminated"), ("unlock", "first\0second\0"), ("change", "only-one\0")] {
            let refused = try #require(try user.run(helper, [command], input: input))
            #expect(refused.status == 1, "\(command)")
            #expect(refused.output == "the input is not NUL-terminated passwords\n", "\(refused.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: user.keychainsFolder.path))
    }

    @Test("keychain-pam-helper: where the kernel keyring is unavailable, an unlock that only its own process would see is reported as a failure, not as an unlock")
    func helperWithoutKernelKeyringSaysSo() throws {
        defer { try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        // As in a container whose seccomp policy refuses the keyring's system calls.
        let unlock = try #require(try user.run(helper, ["unlock"], input: password + "\0",
                                               environment: ["KEYCHAIN_NO_KERNEL_KEYRING": "1"]))
        #expect(unlock.status == 1)
        #expect(unlock.output.contains("for this process only: the kernel keyring is unavailable"), "\(unlock.output)")
        // The keychain it made has the password; it is not unlocked for the user's processes:
        // an item cannot be added.
        let add = try keychainctl(["add-generic-password", "-s", PAMTestStack.itemService, "-a", PAMTestStack.account,
                                   "-w", Self.secret])
        #expect(add.status == 36, "\(add.output)\(add.errors)")
        #expect(try keychainctl(["unlock-keychain", "-u", "login"]).status != 0)
        #expect(try opens(with: password))
    }

    @Test("pam_keychain: timeout=SECONDS gives the login keychain that lock interval at login")
    func timeoutOptionSetsLockInterval() throws {
        let stack = try stack("timeout=900")
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try user.setPassword(password)
        let login = try stack.pamtester(["authenticate", "open_session"], answers: [password])
        #expect(login.status == 0, "\(login.output)\(login.errors)")
        let info = try keychainctl(["show-keychain-info", "login"])
        #expect(info.errors == "Keychain \"login\" timeout=900s\n", "\(info.errors)")
    }

    @Test("pam_keychain: a copy of the user's home reveals no secret without the login password")
    func copiedHomeRevealsNothing() throws {
        let stack = try stack()
        defer { stack.remove(); try? user.reset(keychainctl: keychainctl) }
        let password = LoginTestUser.newPassword()
        try keychainFromFirstLogin(password, stack: stack)
        // Logged out: the session that the module unlocked ends.
        let session = try stack.pamtester(["authenticate", "open_session", "close_session"], answers: [password])
        #expect(session.status == 0)

        // Copied as someone who can read the files would copy them: cp, the copies theirs.
        let copy = TestScratch.folder("copied-home")
        let copied = try SpawnedProcess.runToEnd("/bin/cp", ["-r", user.home.path, copy.path],
                                                 environment: ["PATH": "/usr/bin:/bin"], outputIn: stack.scratchFolder)
        try #require(copied.status == 0, "\(copied.errors)")
        // No file holds the secret or the password in the clear.
        let files = FileManager.default.enumerator(at: copy, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        #expect(files.contains { $0.lastPathComponent == "login.keychain-db" })
        for file in files {
            guard let bytes = try? Data(contentsOf: file) else { continue }
            #expect(bytes.range(of: Data(Self.secret.utf8)) == nil, "\(file.path) holds the secret")
            #expect(bytes.range(of: Data(password.utf8)) == nil, "\(file.path) holds the password")
        }
        // Another user (root here, whose kernel keyring holds none of the user's unlocks) with
        // the copy: the item does not open without the password, and does with it.
        let attacker = ["PATH": "/usr/bin:/bin", "HOME": copy.path, "LANG": "C.UTF-8"]
        let keychain = copy.appendingPathComponent(".local/share/keychains/login.keychain-db").path
        func run(_ arguments: [String], input: String = "") throws -> ProgramProcess.Outcome {
            try #require(try TestAccount.run(keychainctl, arguments, environment: attacker, input: input, timeout: 120))
        }
        defer { _ = try? run(["delete-keychain", keychain]) }
        let read = ["find-generic-password", "-s", PAMTestStack.itemService, "-a", PAMTestStack.account, "-w", keychain]
        let locked = try run(read)
        #expect(locked.status == 36, "\(locked.output)\(locked.errors)")
        #expect(try run(["unlock-keychain", "-u", keychain]).status != 0)
        let wrong = try run(["unlock-keychain", "--password-stdin", keychain], input: "not-" + password)
        #expect(wrong.status == 51, "\(wrong.errors)")
        let right = try run(["unlock-keychain", "--password-stdin", keychain], input: password)
        #expect(right.status == 0, "\(right.errors)")
        let opened = try run(read)
        #expect(opened.output == Self.secret + "\n", "\(opened.errors)")
    }
}
