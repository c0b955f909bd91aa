import Foundation
import Security

/// The corruption run (issue 3, scope 4): a keychain's files are copied, one is damaged,
/// and a fresh process reads every item of the copy.
///
/// Passes when that process never crashes; every status is errSecSuccess, errSecDecode,
/// errSecNotAvailable or errSecItemNotFound; a success always gives the item's own secret;
/// with the WAL damaged, every item of the intact database file still reads correctly (the
/// WAL's may be lost, as the last commits are); with the device key gone or damaged, nothing
/// opens (errSecNotAvailable), nor with a damaged keybag.
public struct CorruptionRun {
    public var items = 40
    public let executable: URL
    public let workFolder: URL
    public static let accessGroup = "proof.tamper"
    static let allowed: Set<OSStatus> = [errSecSuccess, errSecDecode, errSecNotAvailable, errSecItemNotFound]

    public init(executable: URL, workFolder: URL) {
        self.executable = executable
        self.workFolder = workFolder
    }

    public struct Outcome {
        public var problems: [String] = []
        public var cases = 0
        /// Statuses of the reads, over all cases.
        public var statuses: [OSStatus: Int] = [:]
        public var passed: Bool { problems.isEmpty && cases > 0 }
        public var totals: String {
            let counts = statuses.sorted { $0.key > $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            return "\(cases) cases; read statuses \(counts)"
        }
    }

    var original: URL { workFolder.appendingPathComponent("original") }

    /// Makes the keychain to damage (in another process, which leaves its WAL behind) and
    /// gives the sizes of its database and WAL.
    public func setUp() throws -> (database: Int, log: Int, pageSize: Int) {
        var maker = try WorkerProcess(executable, ["tamper-setup", String(items)], dataHome: original,
                                      accessGroups: Self.accessGroup)
        guard maker.finish().last == "ok" else { throw ProofFailure("the keychain to damage could not be made") }
        let folder = original.appendingPathComponent("keychains")
        func size(_ name: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size] as? Int) ?? 0
        }
        return (size("login.keychain-db"), size("login.keychain-db-wal"), 4096)
    }

    public func run(_ cases: [CorruptionCase]) throws -> Outcome {
        var outcome = Outcome()
        for (index, corruption) in cases.enumerated() {
            let home = workFolder.appendingPathComponent("case-\(index)")
            let folder = home.appendingPathComponent("keychains")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in ["login.keychain-db", "login.keychain-db-wal", "login.keychain-key"] {
                try FileManager.default.copyItem(at: original.appendingPathComponent("keychains/\(name)"),
                                                 to: folder.appendingPathComponent(name))
            }
            try corruption.apply(to: folder)
            var probe = try WorkerProcess(executable, ["tamper-probe", String(items)], dataHome: home,
                                          accessGroups: Self.accessGroup)
            let lines = probe.finish()
            outcome.cases += 1
            check(corruption, lines, exit: probe.wasSignalled ? -1 : Int(probe.terminationStatus), into: &outcome)
            try? FileManager.default.removeItem(at: home)
        }
        return outcome
    }

    func check(_ corruption: CorruptionCase, _ lines: [String], exit: Int, into outcome: inout Outcome) {
        func problem(_ text: String) { outcome.problems.append("\(corruption): \(text)") }
        guard exit == 0 else { return problem("the reading process crashed or failed (\(exit))") }
        let reads = lines.dropLast().map { $0.split(separator: " ").map(String.init) }
        guard reads.count == items, let add = lines.last, add.hasPrefix("add ") else {
            return problem("the reading process stopped early")
        }
        for read in reads {
            guard read.count == 3, let status = OSStatus(read[1]) else { return problem("unreadable line \(read)") }
            outcome.statuses[status, default: 0] += 1
            if !Self.allowed.contains(status) { problem("\(read[0]) gave \(status)") }
            if status == errSecSuccess, read[2] != "own" { problem("\(read[0]) gave \(read[2] == "other" ? "another item's secret" : "no secret")") }
            switch corruption {
            case .truncateLog where read[0].hasPrefix("base"):
                if status != errSecSuccess { problem("\(read[0]), in the intact database file, gave \(status)") }
            case .deleteDeviceKey, .truncateDeviceKey, .damageKeybag:
                if status != errSecNotAvailable { problem("\(read[0]) gave \(status) without its keys") }
            default:
                break
            }
        }
        let addStatus = OSStatus(add.dropFirst(4)) ?? 0
        if ![errSecSuccess, errSecNotAvailable].contains(addStatus) { problem("an add gave \(addStatus)") }
    }
}
