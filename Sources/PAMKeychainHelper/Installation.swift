import Foundation
import KeychainCore
#if canImport(Glibc)
import Glibc
#endif

/// `keychain-pam-helper --install --module PATH [--root DIR]`: puts this helper where the
/// module runs it, the module where PAM loads modules from, and, on Debian and Ubuntu, the
/// pam-auth-update profile that adds the module to the login stacks. It changes no stack
/// itself: it says what to run (pam-auth-update) or which lines to add.
///
/// With `--root`, every path is under DIR (a staging folder, or a test's), and root is not
/// needed.
enum Installation {
    /// Where the module runs the helper unless given `helper=` (the module's default).
    static let helperPath = "/usr/local/libexec/swift-keychain/keychain-pam-helper"
    static let profilePath = "/usr/share/pam-configs/keychain"

    /// The pam-auth-update profile: the module after pam_unix in common-auth, common-session
    /// (interactive sessions) and common-password, always optional.
    static let profile = """
        Name: swift-keychain: unlock the login keychain at login
        Default: yes
        Priority: 0
        Auth-Type: Additional
        Auth:
        \toptional\tpam_keychain.so
        Session-Type: Additional
        Session-Interactive-Only: yes
        Session:
        \toptional\tpam_keychain.so
        Password-Type: Additional
        Password:
        \toptional\tpam_keychain.so

        """

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Installs, and returns what to tell the user.
    static func install(module: String, root: String) throws -> [String] {
        guard !root.isEmpty || geteuid() == 0 else {
            throw Failure(description: "--install writes system folders: run it as root (or give --root DIR)")
        }
        guard let moduleBytes = FileManager.default.contents(atPath: module) else {
            throw Failure(description: "cannot read the module \(module)")
        }
        // SwiftPM's builds link the Swift runtime, which must not be loaded into login or sshd.
        guard moduleBytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]),
              moduleBytes.range(of: Data("libswiftCore.so".utf8)) == nil else {
            throw Failure(description: "\(module) is not a module built by Scripts/build-pam-module (an ELF file without the Swift runtime)")
        }
        guard let securityFolder = systemModuleFolder() else {
            throw Failure(description: "no folder of PAM modules found (none holds pam_unix.so)")
        }
        let helperBytes = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
        var installed: [String] = []
        try put(helperBytes, at: root + helperPath, mode: 0o755)
        installed.append(root + helperPath)
        let modulePath = root + securityFolder + "/pam_keychain.so"
        try put(moduleBytes, at: modulePath, mode: 0o644)
        installed.append(modulePath)
        var lines = installed.map { "installed \($0)" }
        if FileManager.default.fileExists(atPath: "/usr/share/pam-configs") {
            try put(Data(profile.utf8), at: root + profilePath, mode: 0o644)
            lines.append("installed \(root + profilePath)")
            lines.append("To add the module to the login stacks, run: pam-auth-update --enable keychain")
        } else {
            lines.append("""
                To add the module to the login stacks, add these lines to the files that login, sshd \
                and passwd include (such as /etc/pam.d/system-auth), each after pam_unix's line of its kind:
                  auth      optional  pam_keychain.so
                  session   optional  pam_keychain.so
                  password  optional  pam_keychain.so
                """)
        }
        return lines
    }

    /// The folder of the system's PAM modules: the first that holds pam_unix.so.
    static func systemModuleFolder() -> String? {
        var candidates: [String] = []
        for base in ["/usr/lib", "/lib"] {
            let triplets = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
            candidates += triplets.filter { $0.hasSuffix("-linux-gnu") || $0.hasSuffix("-linux-gnueabihf") }.sorted()
                .map { "\(base)/\($0)/security" }
        }
        candidates += ["/usr/lib64/security", "/lib64/security", "/usr/lib/security", "/lib/security"]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/pam_unix.so") }
    }

    /// Writes `bytes` at `path` with `mode`, atomically (a temporary name, then renamed over
    /// whatever is there, never through a link), its folders made 0755 as needed.
    private static func put(_ bytes: Data, at path: String, mode: mode_t) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        do {
            try PrivateFile.install(bytes, at: path, role: "file", replacing: true, mode: mode)
        } catch {
            throw Failure(description: "\(error)")
        }
        // The process's umask may have taken bits away.
        guard chmod(path, mode) == 0 else { throw Failure(description: "cannot set the mode of \(path): \(String(cString: strerror(errno)))") }
    }
}
