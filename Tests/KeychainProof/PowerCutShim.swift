import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The LD_PRELOAD shim of the power-loss and I/O-fault suites (Tests/PowerCutShim/powercut.c):
/// built with the system's C compiler into a temporary folder, loaded into a worker through
/// its environment, and driven there through the functions it exports.
public struct PowerCutShim: Sendable {
    /// The built library.
    public let library: URL

    /// The shim's source, beside this target's folder.
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PowerCutShim/powercut.c")

    /// Compiles the shim into `folder` (`cc -shared -fPIC ... -ldl`), with the system's C
    /// compiler or, where there is none, the Swift toolchain's clang.
    public static func build(into folder: URL) throws -> PowerCutShim {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent("powercut.so")
        for compiler in ["cc", "clang"] {
            let process = try SpawnedProcess(
                "/usr/bin/env", [compiler, "-O1", "-shared", "-fPIC", "-o", library.path, source.path, "-ldl"],
                environment: ProcessInfo.processInfo.environment,
                stdout: .open("/dev/null", O_WRONLY), stderr: .open("/dev/null", O_WRONLY))
            let termination = process.wait()
            if termination.status == 0, !termination.signalled { return PowerCutShim(library: library) }
        }
        throw ProofFailure("cannot compile \(source.path) with cc or clang")
    }

    /// The environment that loads the shim and watches `folder`; with `image`, it keeps the
    /// durable image there; with `killAt`, it kills the process at that sync point.
    public func environment(watching folder: URL, image: URL? = nil, killAt: Int? = nil) -> [String: String?] {
        ["LD_PRELOAD": library.path, "POWERCUT_DIR": folder.path,
         "POWERCUT_IMAGE": image?.path, "POWERCUT_KILL_AT": killAt.map(String.init)]
    }

    /// The folder a power cut leaves, built in `folder` from the durable image in `image`:
    /// each durable name with its durable contents (empty when its contents were never
    /// synced), without the shared-memory file, which lives in memory.
    public static func restore(image: URL, into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let listing = try String(contentsOf: image.appendingPathComponent("listing"), encoding: .utf8)
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, !fields[0].hasSuffix("-shm") else { continue }
            let contents = FileManager.default.contents(atPath: image.appendingPathComponent("inode-\(fields[1])").path)
            let target = folder.appendingPathComponent(String(fields[0]))
            guard FileManager.default.createFile(atPath: target.path, contents: contents ?? Data(),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw ProofFailure("cannot write \(target.path)")
            }
        }
    }
}

/// The shim's control functions, seen from inside a process it was loaded into.
enum PowerCutControl {
    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)
    }

    /// Whether the shim is loaded.
    static var isLoaded: Bool { symbol("powercut_sync_points") != nil }

    /// The sync points so far (-1 without the shim).
    static var syncPoints: Int {
        guard let pointer = symbol("powercut_sync_points") else { return -1 }
        return unsafeBitCast(pointer, to: (@convention(c) () -> Int).self)()
    }

    /// Arms a fault at the `after`th write or sync from now: `kind` enospc, eio or short.
    static func armFault(_ kind: String, onSyncs: Bool, after: Int) -> Bool {
        guard let pointer = symbol("powercut_arm_fault") else { return false }
        let arm = unsafeBitCast(pointer, to: (@convention(c) (UnsafePointer<CChar>, CInt, Int) -> CInt).self)
        return kind.withCString { arm($0, onSyncs ? 1 : 0, after) } == 0
    }

    /// Whether the armed fault has begun.
    static var faultIsActive: Bool {
        guard let pointer = symbol("powercut_fault_active") else { return false }
        return unsafeBitCast(pointer, to: (@convention(c) () -> CInt).self)() != 0
    }

    /// Ends the fault; how many calls it failed.
    @discardableResult
    static func endFault() -> Int {
        guard let pointer = symbol("powercut_end_fault") else { return 0 }
        return unsafeBitCast(pointer, to: (@convention(c) () -> Int).self)()
    }
}
