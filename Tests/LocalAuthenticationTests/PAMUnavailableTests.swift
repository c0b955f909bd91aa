import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// A system where libpam.so.0 does not load: PresenceWorker runs in a mount namespace of its
/// own where the library is an empty file (the rest of the system is untouched).
@Suite(.enabled(if: HiddenPAM.isPossible, "needs root and unshare --mount to hide libpam in a namespace"))
struct PAMUnavailableTests {
    @Test("LocalAuthentication: without a loadable libpam, the device-owner policy gives passcodeNotSet, and the program still runs")
    func missingPAMIsPasscodeNotSet() throws {
        let library = try #require(HiddenPAM.libraryFile)
        let worker = ProgramProcess("PresenceWorker").executable.path
        let scratch = TestScratch.folder("no-pam")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outcome = try SpawnedProcess.runToEnd(
            "/usr/bin/unshare",
            ["--mount", "/bin/sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$1\" can:deviceOwnerAuthentication evaluate:deviceOwnerAuthentication prove",
             library, worker],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: scratch)
        #expect(outcome.output == """
            can:deviceOwnerAuthentication -> false LAError -5
            evaluate:deviceOwnerAuthentication -> LAError -5
            prove -> PresenceFailure unavailable

            """, "\(outcome.errors)")
        #expect(outcome.status == 0)
    }
}

/// Hiding libpam from one program: a bind mount of /dev/null over the library file, in a mount
/// namespace of that program's own.
enum HiddenPAM {
    /// The file the dynamic loader opens for libpam.so.0 here, found where the loader mapped
    /// it (/proc/self/maps): dladdr is not imported by Swift's Glibc module.
    static let libraryFile: String? = {
        guard dlopen("libpam.so.0", RTLD_NOW | RTLD_LOCAL) != nil, let maps = readProcFile("/proc/self/maps") else {
            return nil
        }
        return maps.split(separator: "\n").lazy
            .compactMap { line in line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) }
            .first { $0.hasPrefix("/") && URL(fileURLWithPath: $0).lastPathComponent.hasPrefix("libpam.so") }
    }()

    /// Whether this process can hide the library from a program it starts: it is root and may
    /// make a mount namespace.
    static let isPossible: Bool = {
        guard geteuid() == 0, libraryFile != nil, access("/usr/bin/unshare", X_OK) == 0 else { return false }
        let process = try? SpawnedProcess("/usr/bin/unshare", ["--mount", "/bin/true"], environment: [:],
                                          stdout: .open("/dev/null", O_WRONLY), stderr: .open("/dev/null", O_WRONLY))
        return process?.wait().status == 0
    }()

    /// A file of /proc read to its end: Foundation reads only what its size says, and /proc
    /// files say 0.
    private static func readProcFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }
}
