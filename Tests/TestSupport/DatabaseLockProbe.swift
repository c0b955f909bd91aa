import Foundation

/// Whether a process holds an SQLite database open, as another process sees it.
///
/// A connection to a database in WAL mode keeps SQLite's shared lock (a POSIX read lock on
/// the bytes SQLite reserves for it) for as long as it is open; a process that finds no such
/// lock takes the database as unused, and the last one to close it then checkpoints and
/// removes its log. POSIX locks are per process and per file: a process that opens and
/// closes the file a second time, by any path, drops its own. Only another process can see
/// that, so the probe is one: python3's `fcntl`, an implementation independent of ours,
/// tries to lock those bytes exclusively without waiting.
public enum DatabaseLockProbe {
    /// True when some other process holds SQLite's shared lock on the database at `path`.
    public static func isHeld(_ path: String) throws -> Bool {
        let script = """
            import fcntl, os, sys
            fd = os.open(sys.argv[1], os.O_RDWR)
            # SQLite's lock bytes: PENDING_BYTE (1 GiB), RESERVED_BYTE after it, then the
            # 510 bytes of the shared range.
            start, length = 0x40000000 + 2, 510
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, length, start)
            except OSError:
                print("held")
            else:
                fcntl.lockf(fd, fcntl.LOCK_UN, length, start)
                print("free")
            """
        let folder = TestScratch.folder("lock-probe")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try SpawnedProcess.runToEnd("/usr/bin/python3", ["-c", script, path],
                                              environment: ProcessInfo.processInfo.environment, outputIn: folder)
        switch (run.status, run.output.trimmingCharacters(in: .whitespacesAndNewlines)) {
        case (0, "held"): return true
        case (0, "free"): return false
        default: throw ProbeFailure(description: "the lock probe failed (\(run.status)): \(run.output) \(run.errors)")
        }
    }

    struct ProbeFailure: Error, CustomStringConvertible {
        let description: String
    }
}
