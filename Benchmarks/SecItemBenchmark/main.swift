// Throughput of the SecItem functions at several keychain sizes, and peak memory.
//
//   swift run -c release keychain-benchmark [sizes...]      (default: 1000 10000 100000)
//
// Each size runs in a fresh child process with a fresh keychain in a temporary folder, so
// that its peak memory (VmHWM) is its own. Each operation is timed in rounds; the table
// shows the median round in operations per second.
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

/// Runs one size in this process and returns its figures.
func run(size: Int) -> Figures {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("keychain-benchmark-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let environment = KeychainEnvironment(directory: directory, accessGroups: ["bench"])
    return KeychainEnvironment.withValue(environment) {
        let secret = Data(repeating: 0x5A, count: 32)
        let add = measure(size, prepare: { index in
            query(index).merging([kSecValueData as String: secret]) { $1 } as CFDictionary
        }) { attributes in
            expectSuccess(SecItemAdd(attributes, nil), "add")
        }
        var generator = SystemRandomNumberGenerator()
        let find = measure(20_000, prepare: { _ in
            query(Int.random(in: 0..<size, using: &generator))
                .merging([kSecReturnData as String: true]) { $1 } as CFDictionary
        }) { lookup in
            var result: CFTypeRef?
            expectSuccess(SecItemCopyMatching(lookup, &result), "find")
            precondition((result as? Data)?.count == 32)
        }
        let changes = [kSecValueData as String: Data(repeating: 0xA5, count: 32)] as CFDictionary
        let update = measure(10_000, prepare: { _ in
            query(Int.random(in: 0..<size, using: &generator)) as CFDictionary
        }) { match in
            expectSuccess(SecItemUpdate(match, changes), "update")
        }
        let delete = measure(min(size, 10_000), prepare: { index in query(index) as CFDictionary }) { match in
            expectSuccess(SecItemDelete(match), "delete")
        }
        return Figures(size: size, add: add, find: find, update: update, delete: delete, peakMemoryMiB: peakMemoryMiB())
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child", let size = arguments.dropFirst().first.flatMap({ Int($0) }) {
    let figures = run(size: size)
    print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
    exit(0)
}

let sizes = arguments.compactMap { Int($0) }.isEmpty ? [1_000, 10_000, 100_000] : arguments.compactMap { Int($0) }
var table: [Figures] = []
for size in sizes {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    child.arguments = ["--child", String(size)]
    let output = Pipe()
    child.standardOutput = output
    try child.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    child.waitUntilExit()
    guard child.terminationStatus == 0, let figures = try? JSONDecoder().decode(Figures.self, from: data) else {
        FileHandle.standardError.write(Data("benchmark: the run at \(size) items failed\n".utf8))
        exit(1)
    }
    table.append(figures)
}

func cell(_ value: Double, _ width: Int = 10) -> String {
    let text = value.isNaN ? "n/a" : String(Int(value.rounded()))
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

print("SecItem throughput, ops/s (median of \(rounds) rounds); peak memory of the process")
print("     items |     add/s |    find/s |  update/s |  delete/s | peak MiB")
print("-----------+-----------+-----------+-----------+-----------+---------")
for row in table {
    print("\(cell(Double(row.size))) | \(cell(row.add)) | \(cell(row.find)) | \(cell(row.update)) | \(cell(row.delete)) | \(String(format: "%8.1f", row.peakMemoryMiB))")
}
if let first = table.first, let last = table.last, table.count > 1 {
    print(String(format: "find at %d items is %.2fx slower than at %d items", last.size, first.find / last.find, first.size))
}
