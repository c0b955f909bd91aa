// The SecItem calls beside the store anchor (Benchmarks/StoreAnchor/anchor.c: the same rows
// in SQLite, sealed with the same AES-256-GCM, and nothing else), alternating round by round
// in one run, so that a moment when the shared machine or its disk is slow touches both alike.
//
//   keychain-benchmark --anchor PATH [--sample K] [sizes...]      (default: 1000 100000)
import Foundation
import Security

/// The anchor program as a child process, driven one command a line (see anchor.c).
final class StoreAnchorProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(executable: String, folder: URL) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [folder.path]
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            FileHandle.standardError.write(Data("benchmark: the anchor \(executable) did not start: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Sends one command; the nanoseconds the anchor's loop took, by its own clock.
    func time(_ command: String) -> UInt64 {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        guard let nanoseconds = UInt64(String(decoding: line, as: UTF8.self)) else {
            FileHandle.standardError.write(Data("benchmark: the anchor failed at '\(command)'\n".utf8))
            exit(1)
        }
        return nanoseconds
    }

    func quit() {
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        process.waitUntilExit()
    }
}

/// xorshift64*, the anchor's generator: drawing an item is as cheap on both sides, inside
/// both timers (SystemRandomNumberGenerator makes a system call per draw).
struct XorShiftGenerator: RandomNumberGenerator {
    private var state = UInt64(DispatchTime.now().uptimeNanoseconds) | 1

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545F4914F6CDD1D
    }
}

/// Each operation's rate per round, ours and the anchor's, in the order of the rounds.
struct ComparedFigures: Codable {
    static let operations = ["add", "find", "update", "delete"]
    var size: Int
    var ours: [[Double]]
    var anchor: [[Double]]
    var peakMemoryMiB: Double
}

/// The keychain's calls as a program writes them: each dictionary built in the call's line.
enum SecItemCalls {
    static let service = "bench.example.com"

    static func add(_ index: Int, secret: Data) {
        let attributes = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "user-\(index)@example.com",
            kSecValueData as String: secret,
        ] as CFDictionary
        expectSuccess(SecItemAdd(attributes, nil), "add")
    }

    static func find(_ index: Int) {
        let query = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "user-\(index)@example.com",
            kSecReturnData as String: true,
        ] as CFDictionary
        var result: CFTypeRef?
        expectSuccess(SecItemCopyMatching(query, &result), "find")
        precondition((result as? Data)?.count == 32)
    }

    static func update(_ index: Int, secret: Data) {
        let query = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "user-\(index)@example.com",
        ] as CFDictionary
        expectSuccess(SecItemUpdate(query, [kSecValueData as String: secret] as CFDictionary), "update")
    }

    static func delete(_ index: Int) {
        let query = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "user-\(index)@example.com",
        ] as CFDictionary
        expectSuccess(SecItemDelete(query), "delete")
    }
}

/// Nanoseconds that `count` calls of `body` take, each given its number.
func timeCalls(_ count: Int, _ body: (Int) -> Void) -> UInt64 {
    let start = DispatchTime.now().uptimeNanoseconds
    for call in 0..<count { body(call) }
    return DispatchTime.now().uptimeNanoseconds - start
}

/// Runs `workload` on a fresh keychain and a fresh anchor store, in `rounds` rounds per
/// operation, ours first in even rounds and the anchor first in odd ones. Every call's input
/// is made inside its timer; finds and updates draw among the items added, and deletes take
/// the items in one random order. Nothing waits between operations.
func runCompared(_ workload: Workload, size: Int, anchorExecutable: String) -> ComparedFigures {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-benchmark-\(UUID().uuidString)")
    let anchorFolder = base.appendingPathComponent("anchor")
    defer { try? FileManager.default.removeItem(at: base) }
    try? FileManager.default.createDirectory(at: anchorFolder, withIntermediateDirectories: true)
    let anchor = StoreAnchorProcess(executable: anchorExecutable, folder: anchorFolder)
    defer { anchor.quit() }
    let environment = KeychainEnvironment(directory: base.appendingPathComponent("keychain"), accessGroups: ["bench"])
    return KeychainEnvironment.withValue(environment) {
        var ours: [[Double]] = Array(repeating: [], count: 4)
        var anchors: [[Double]] = Array(repeating: [], count: 4)
        var generator = XorShiftGenerator()
        let addsPerRound = max(1, workload.adds / rounds)
        let added = addsPerRound * rounds
        var deleteOrder = Array(0..<added)
        deleteOrder.shuffle(using: &generator)
        let oldSecret = Data(repeating: 0x5A, count: 32)
        let newSecret = Data(repeating: 0xA5, count: 32)
        let perRound = [addsPerRound, max(1, workload.finds / rounds), max(1, workload.updates / rounds),
                        max(1, min(workload.deletes, added) / rounds)]
        for operation in 0..<4 {
            let count = perRound[operation]
            for round in 0..<rounds {
                let oursRound = { () -> UInt64 in
                    switch operation {
                    case 0: timeCalls(count) { SecItemCalls.add(round * count + $0, secret: oldSecret) }
                    case 1: timeCalls(count) { _ in SecItemCalls.find(Int.random(in: 0..<added, using: &generator)) }
                    case 2: timeCalls(count) { _ in
                        SecItemCalls.update(Int.random(in: 0..<added, using: &generator), secret: newSecret)
                    }
                    default: timeCalls(count) { SecItemCalls.delete(deleteOrder[round * count + $0]) }
                    }
                }
                let anchorCommand = switch operation {
                case 0: "add \(round * count) \(count)"
                case 1: "find \(count) \(added)"
                case 2: "update \(count) \(added)"
                default: "delete \(count)"
                }
                let (oursTime, anchorTime): (UInt64, UInt64)
                if round % 2 == 0 {
                    oursTime = oursRound()
                    anchorTime = anchor.time(anchorCommand)
                } else {
                    anchorTime = anchor.time(anchorCommand)
                    oursTime = oursRound()
                }
                ours[operation].append(Double(count) / (Double(oursTime) / 1e9))
                anchors[operation].append(Double(count) / (Double(anchorTime) / 1e9))
            }
        }
        return ComparedFigures(size: size, ours: ours, anchor: anchors, peakMemoryMiB: peakMemoryMiB())
    }
}

/// The targets, as the median of the per-round ratio ours / anchor in calls per second:
/// finds and adds within 2.5 times the anchor's time (their instruction targets are
/// `--instructions`'), updates and deletes at least 0.9 times the anchor's rate, whose scrub
/// is the same.
let comparedTargets = [1 / 2.5, 1 / 2.5, 0.9, 0.9]

func printComparedTable(_ table: [ComparedFigures], workload: String) {
    print("SecItem calls against the store anchor (C: SQLite + BoringSSL AES-256-GCM, the same rows), per second")
    print(workload)
    print("\(rounds) rounds per operation, ours and the anchor alternating; ratio = ours / anchor in calls per second, per round")
    print("     items | operation |   ours/s median |  anchor/s median | ratio min | ratio median | ratio max")
    print("-----------+-----------+-----------------+------------------+-----------+--------------+----------")
    var worst = [Double](repeating: .infinity, count: 4)
    for row in table {
        for operation in 0..<4 {
            let ratios = zip(row.ours[operation], row.anchor[operation]).map { $0 / $1 }.sorted()
            let middle = median(ratios)
            worst[operation] = min(worst[operation], middle)
            print("\(cell(Double(row.size))) | \(ComparedFigures.operations[operation].padding(toLength: 9, withPad: " ", startingAt: 0))"
                  + " | \(cell(median(row.ours[operation]), 15)) | \(cell(median(row.anchor[operation]), 16))"
                  + String(format: " | %8.2fx | %11.2fx | %8.2fx", ratios.first ?? .nan, middle, ratios.last ?? .nan))
        }
    }
    print("peak memory of ours: " + table.map { "\($0.size) items \(String(format: "%.1f", $0.peakMemoryMiB)) MiB" }
        .joined(separator: ", "))
    let verdicts = (0..<4).map { operation in
        String(format: "%@ %.2fx (target %.2fx: %@)", ComparedFigures.operations[operation], worst[operation],
               comparedTargets[operation], worst[operation] >= comparedTargets[operation] ? "met" : "not met")
    }
    let met = (0..<4).allSatisfy { worst[$0] >= comparedTargets[$0] }
    print("verdict: \(met ? "PASS" : "FAIL") (lowest median ratio over the sizes: " + verdicts.joined(separator: ", ")
          + "; adds and finds are judged on instructions by --instructions)")
}
