// Throughput of the SecItem functions at several keychain sizes, beside the store anchor.
//
//   keychain-benchmark --anchor PATH [--sample K] [sizes...]  against the anchor, alternating
//                                                              (default: 1000 100000)
//   keychain-benchmark --anchor PATH --instructions [sizes...] instructions per find and add
//   keychain-benchmark --durable [count]                    durable adds against bare SQLite
//   keychain-benchmark --sample K --raw [sizes...]          N adds, then K of each other call
//   keychain-benchmark --latency [sizes...]                 (default: 100000 1000000)
//   keychain-benchmark --keys [sizes...]                    finds of keys by tag (KeyLookups.swift)
//
// Each size runs in a fresh child process with a fresh keychain in a temporary folder, so
// that its peak memory (VmHWM) is its own. The anchor (Benchmarks/StoreAnchor/anchor.c, built
// by Scripts/benchmark) runs as that child's own child, and the two alternate round by round
// (AnchorComparison.swift); `--instructions` counts instructions with callgrind
// (InstructionCounts.swift).
//
// Against the anchor, each size adds its N items, then makes 20,000 random finds, and
// min(N, 2,000) random updates and deletes in random order (min(N, K) with `--sample K`).
// `--raw` and `--latency` make 20,000 random finds, 10,000 random updates and up to 10,000
// deletes in random order; with `--sample K`, min(N, K) of each: the workload of
// Benchmarks/SecretServiceAnchor, which Scripts/benchmark-anchors compares against with
// `--raw` ("size add find update delete peakMiB" lines, ours alone).
// `--latency` times every call of the default workload on its own and prints the p50 and
// p99 per operation, to show how the cost of one call grows with the size.
import Foundation
import Security

let rounds = 5

struct Figures: Codable {
    var size: Int
    var add: Double
    var find: Double
    var update: Double
    var delete: Double
    var peakMemoryMiB: Double
}

/// The p50 and p99 of one operation's calls, in microseconds.
struct Percentiles: Codable {
    var p50: Double
    var p99: Double
}

struct LatencyFigures: Codable {
    var size: Int
    var add: Percentiles
    var find: Percentiles
    var update: Percentiles
    var delete: Percentiles
    var peakMemoryMiB: Double
}

/// How many calls of each operation a run makes at `size` items.
struct Workload {
    var adds: Int
    var finds: Int
    var updates: Int
    var deletes: Int

    static func standard(_ size: Int) -> Workload {
        Workload(adds: size, finds: 20_000, updates: 10_000, deletes: min(size, 10_000))
    }

    static func sampled(_ size: Int, _ sample: Int) -> Workload {
        Workload(adds: size, finds: min(size, sample), updates: min(size, sample), deletes: min(size, sample))
    }

    /// Against the anchor: finds are cheap, so 20,000 make rounds long enough to time; each
    /// update and delete waits for several syncs, so `writes` of each (2,000 unless given).
    static func compared(_ size: Int, writes: Int?) -> Workload {
        Workload(adds: size, finds: 20_000, updates: min(size, writes ?? 2_000), deletes: min(size, writes ?? 2_000))
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Times `count` calls of `body`, in `rounds` equal rounds; the median round's rate in
/// calls per second. `prepare` makes each call's input (given 0..<count) untimed, a chunk at
/// a time, so that the table measures the keychain rather than the building of dictionaries,
/// and the inputs held at once do not grow with the size.
func measure<Input>(_ count: Int, prepare: (Int) -> Input, _ body: (Input) -> Void) -> Double {
    let perRound = max(1, count / rounds)
    var rates: [Double] = []
    for round in 0..<rounds {
        var nanoseconds: UInt64 = 0
        for chunk in stride(from: round * perRound, to: (round + 1) * perRound, by: 500) {
            let inputs = (chunk..<min(chunk + 500, (round + 1) * perRound)).map(prepare)
            let start = DispatchTime.now().uptimeNanoseconds
            for input in inputs { body(input) }
            nanoseconds += DispatchTime.now().uptimeNanoseconds - start
        }
        rates.append(Double(perRound) / (Double(nanoseconds) / 1e9))
    }
    return median(rates)
}

/// Call latencies in log-spaced buckets 1% apart, so that percentiles of a million calls
/// cost a few kilobytes rather than a sample each, and do not show in the peak memory.
struct LatencyHistogram {
    static let growth = 1.01
    private var counts = [Int](repeating: 0, count: 3_000)  // up to 1.01^3000 ns: beyond any call
    private var total = 0

    mutating func record(nanoseconds: UInt64) {
        let bucket = Int(log(Double(max(nanoseconds, 1))) / log(Self.growth))
        counts[min(bucket, counts.count - 1)] += 1
        total += 1
    }

    /// The latency below which `fraction` of the calls fell, in microseconds (within 1%).
    func percentile(_ fraction: Double) -> Double {
        let rank = max(1, Int((fraction * Double(total)).rounded(.up)))
        var seen = 0
        for (bucket, count) in counts.enumerated() {
            seen += count
            if seen >= rank { return pow(Self.growth, Double(bucket) + 0.5) / 1_000 }
        }
        return .nan
    }
}

/// Times each of `count` calls of `body` on its own; its input is made untimed just before.
func latencies<Input>(_ count: Int, prepare: (Int) -> Input, _ body: (Input) -> Void) -> Percentiles {
    var histogram = LatencyHistogram()
    for index in 0..<count {
        let input = prepare(index)
        let start = DispatchTime.now().uptimeNanoseconds
        body(input)
        histogram.record(nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
    }
    return Percentiles(p50: histogram.percentile(0.50), p99: histogram.percentile(0.99))
}

func peakMemoryMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return .nan }
    return kib / 1024
}

func expectSuccess(_ status: OSStatus, _ what: String) {
    if status != errSecSuccess {
        FileHandle.standardError.write(Data("benchmark: \(what) failed with \(status)\n".utf8))
        exit(1)
    }
}

func query(_ index: Int) -> [String: Any] {
    [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: "bench.example.com",
        kSecAttrAccount as String: "user-\(index)@example.com",
    ]
}

/// The four operations of a run, each given a way to time `count` calls of it.
struct Operations<Result> {
    var add: Result
    var find: Result
    var update: Result
    var delete: Result
}

/// Runs `workload` in a fresh keychain in this process; `time` times one operation.
/// Finds and updates pick among the items added (whole rounds of them) at random.
func run<Result>(
    _ workload: Workload,
    time: (Int, (Int) -> CFDictionary, (CFDictionary) -> Void) -> Result
) -> Operations<Result> {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("keychain-benchmark-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let environment = KeychainEnvironment(directory: directory, accessGroups: ["bench"])
    return KeychainEnvironment.withValue(environment) {
        let secret = Data(repeating: 0x5A, count: 32)
        let add = time(workload.adds, { index in
            query(index).merging([kSecValueData as String: secret]) { $1 } as CFDictionary
        }) { attributes in
            expectSuccess(SecItemAdd(attributes, nil), "add")
        }
        let added = max(1, workload.adds / rounds) * rounds
        var generator = XorShiftGenerator()
        // No pause after the adds: finds meet the background checkpoint of the adds' log, as
        // a program's finds do after a burst of writes.
        let find = time(workload.finds, { _ in
            query(Int.random(in: 0..<added, using: &generator))
                .merging([kSecReturnData as String: true]) { $1 } as CFDictionary
        }) { lookup in
            var result: CFTypeRef?
            expectSuccess(SecItemCopyMatching(lookup, &result), "find")
            precondition((result as? Data)?.count == 32)
        }
        let changes = [kSecValueData as String: Data(repeating: 0xA5, count: 32)] as CFDictionary
        let update = time(workload.updates, { _ in
            query(Int.random(in: 0..<added, using: &generator)) as CFDictionary
        }) { match in
            expectSuccess(SecItemUpdate(match, changes), "update")
        }
        var deleteOrder = Array(0..<added)
        deleteOrder.shuffle(using: &generator)
        let delete = time(min(workload.deletes, added), { index in query(deleteOrder[index]) as CFDictionary }) { match in
            expectSuccess(SecItemDelete(match), "delete")
        }
        return Operations(add: add, find: find, update: update, delete: delete)
    }
}

/// Runs `arguments` in a child process of this executable and decodes what it prints.
func inChild<Output: Decodable>(_ arguments: [String], size: Int) throws -> Output {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    child.arguments = arguments
    let output = Pipe()
    child.standardOutput = output
    try child.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    child.waitUntilExit()
    guard child.terminationStatus == 0, let figures = try? JSONDecoder().decode(Output.self, from: data) else {
        FileHandle.standardError.write(Data("benchmark: the run at \(size) items failed\n".utf8))
        exit(1)
    }
    return figures
}

func printJSON(_ value: some Encodable) throws -> Never {
    print(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    exit(0)
}

func cell(_ value: Double, _ width: Int = 10) -> String {
    let text = value.isNaN ? "n/a" : String(Int(value.rounded()))
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

func microseconds(_ value: Double, _ width: Int = 9) -> String {
    let text = value.isNaN ? "n/a" : String(format: value < 100 ? "%.1f" : "%.0f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

func takeFlag(_ flag: String, from arguments: inout [String]) -> Bool {
    guard let index = arguments.firstIndex(of: flag) else { return false }
    arguments.remove(at: index)
    return true
}
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--instructions-child", arguments.count == 5, let size = Int(arguments[3]), let count = Int(arguments[4]) {
    runInstructionChild(operation: arguments[1], folder: arguments[2], size: size, count: count)
}
var anchorExecutable: String?
if let index = arguments.firstIndex(of: "--anchor"), index + 1 < arguments.count {
    anchorExecutable = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
}
var sample: Int?
if let index = arguments.firstIndex(of: "--sample"), index + 1 < arguments.count {
    sample = Int(arguments[index + 1])
    arguments.removeSubrange(index...index + 1)
}
let raw = takeFlag("--raw", from: &arguments)
let instructions = takeFlag("--instructions", from: &arguments)
let latency = takeFlag("--latency", from: &arguments)
let child = takeFlag("--child", from: &arguments)
if takeFlag("--keys", from: &arguments) {
    let sizes = arguments.compactMap { Int($0) }
    guard sizes.count == arguments.count, sizes.allSatisfy({ $0 > 0 }), sample == nil, !raw, !latency else {
        FileHandle.standardError.write(Data("usage: keychain-benchmark --keys [sizes...]\n".utf8))
        exit(2)
    }
    if child, let size = sizes.first { try printJSON(runKeyLookups(size: size)) }
    try printKeyLookupTable(sizes: sizes.isEmpty ? [1_000, 100_000] : sizes)
}
if takeFlag("--durable", from: &arguments) {
    let count = arguments.first.flatMap { Int($0) } ?? 4_000
    printDurableTable(measureDurableWrites(count: count), count: count)
    exit(0)
}
let sizes = arguments.compactMap { Int($0) }
guard sizes.count == arguments.count, sizes.allSatisfy({ $0 >= rounds }), sample.map({ $0 >= rounds }) ?? true,
      !(latency && (sample != nil || raw)), !(instructions && (sample != nil || raw || latency)),
      anchorExecutable != nil || raw || latency || child else {
    FileHandle.standardError.write(Data("""
        usage: keychain-benchmark --anchor PATH [--sample K] [sizes...]
               keychain-benchmark --anchor PATH --instructions [sizes...]
               keychain-benchmark --sample K --raw [sizes...]
               keychain-benchmark --latency [sizes...]
               keychain-benchmark --keys [sizes...]

        """.utf8))
    exit(2)
}

if instructions, let anchorExecutable {
    printInstructionTable(sizes: sizes.isEmpty ? [1_000, 100_000] : sizes, anchorExecutable: anchorExecutable)
}

if child, let size = sizes.first {
    if raw == false, latency == false, let anchorExecutable {
        try printJSON(runCompared(.compared(size, writes: sample), size: size,
                                  anchorExecutable: anchorExecutable))
    }
    if latency {
        let figures = run(.standard(size), time: latencies)
        try printJSON(LatencyFigures(
            size: size, add: figures.add, find: figures.find, update: figures.update,
            delete: figures.delete, peakMemoryMiB: peakMemoryMiB()))
    }
    let figures = run(sample.map { .sampled(size, $0) } ?? .standard(size), time: measure)
    try printJSON(Figures(
        size: size, add: figures.add, find: figures.find, update: figures.update,
        delete: figures.delete, peakMemoryMiB: peakMemoryMiB()))
}

if latency {
    var table: [LatencyFigures] = []
    for size in sizes.isEmpty ? [100_000, 1_000_000] : sizes {
        FileHandle.standardError.write(Data("keychain-benchmark: timing every call at \(size) items\n".utf8))
        table.append(try inChild(["--child", "--latency", String(size)], size: size))
    }
    print("SecItem latency per call, microseconds (p50 and p99); peak memory of the process")
    print("N adds, then 20,000 random finds, 10,000 random updates, min(size, 10,000) deletes")
    print("     items |   add p50 |   add p99 |  find p50 |  find p99 |   upd p50 |   upd p99 |   del p50 |   del p99 | peak MiB")
    print("-----------+-----------+-----------+-----------+-----------+-----------+-----------+-----------+-----------+---------")
    for row in table {
        let cells = [row.add, row.find, row.update, row.delete].flatMap { [microseconds($0.p50), microseconds($0.p99)] }
        print("\(cell(Double(row.size))) | " + cells.joined(separator: " | ") + " | \(String(format: "%8.1f", row.peakMemoryMiB))")
    }
    if let first = table.first, let last = table.last, table.count > 1 {
        print(String(
            format: "from %d to %d items: p50 add %.2fx, find %.2fx, update %.2fx, delete %.2fx; peak memory %.1f -> %.1f MiB",
            first.size, last.size, last.add.p50 / first.add.p50, last.find.p50 / first.find.p50,
            last.update.p50 / first.update.p50, last.delete.p50 / first.delete.p50,
            first.peakMemoryMiB, last.peakMemoryMiB))
    }
    exit(0)
}

if raw {
    var table: [Figures] = []
    for size in sizes.isEmpty ? [1_000, 10_000, 100_000] : sizes {
        table.append(try inChild(["--child"] + (sample.map { ["--sample", String($0)] } ?? []) + [String(size)], size: size))
    }
    for row in table {
        print(row.size, row.add, row.find, row.update, row.delete, row.peakMemoryMiB)
    }
    exit(0)
}

var table: [ComparedFigures] = []
for size in sizes.isEmpty ? [1_000, 100_000] : sizes {
    FileHandle.standardError.write(Data("keychain-benchmark: \(size) items, ours and the anchor alternating\n".utf8))
    var childArguments = ["--child", "--anchor", anchorExecutable ?? ""]
    if let sample { childArguments += ["--sample", String(sample)] }
    childArguments.append(String(size))
    table.append(try inChild(childArguments, size: size))
}
let workloadLine = "N adds, then 20,000 random finds, min(N, \(sample ?? 2_000)) random updates and deletes in random order"
printComparedTable(table, workload: workloadLine)
