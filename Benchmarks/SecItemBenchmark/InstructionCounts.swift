// Instructions per find and per add, ours and the store anchor's, counted by valgrind's
// callgrind, which a loaded machine does not distort as it distorts times.
//
//   keychain-benchmark --anchor PATH --instructions [sizes...]      (default: 1000 100000)
//
// Setup is left out by difference, not by toggling collection: callgrind's collection state is
// per thread, and a toggle on the calling thread would leave out what the keychain's own
// threads do for a call. Each store is filled to N items natively (no valgrind), and settled by
// one native call; then, for each program and operation, two processes run under callgrind on
// copies of that filled store, one making `fewer` calls and one `more`, and a call costs
// (instructions of the longer run - instructions of the shorter) / (more - fewer): the
// process's start, the store's opening, the first call's preparations and the exit are the
// same in both and cancel out. A find is by service and account with its data returned, its
// query dictionary built inside the count; an add adds a new item (N, N+1, ...) to the copy.
import Foundation
import Security

let instructionCalls = (fewer: 100, more: 600)

/// The instruction targets: finds and adds at most 2.5 times the anchor's.
let instructionTarget = 2.5

struct InstructionFigures: Codable {
    var size: Int
    /// Instructions per call, by operation (find, add): ours, then the anchor's.
    var ours: [Double]
    var anchor: [Double]
}

/// What `--instructions-child` does in a process of its own: `count` finds of random items
/// among the first `size`, or `count` adds of the items from `size` on, in the keychain at
/// `folder`.
func runInstructionChild(operation: String, folder: String, size: Int, count: Int) -> Never {
    let environment = KeychainEnvironment(directory: URL(fileURLWithPath: folder), accessGroups: ["bench"])
    KeychainEnvironment.withValue(environment) {
        var generator = XorShiftGenerator()
        let secret = Data(repeating: 0x5A, count: 32)
        for call in 0..<count {
            switch operation {
            case "find": SecItemCalls.find(Int.random(in: 0..<size, using: &generator))
            case "add", "fill": SecItemCalls.add(size + call, secret: secret)
            // For profiling the superseding writes (perf, strace) on a filled store.
            case "update": SecItemCalls.update(Int.random(in: 0..<size, using: &generator), secret: secret)
            case "delete": SecItemCalls.delete(call)
            default:
                FileHandle.standardError.write(Data("benchmark: unknown operation \(operation)\n".utf8))
                exit(2)
            }
        }
    }
    exit(0)
}

/// Runs `arguments` and waits; its standard error, and standard input fed from `input`.
@discardableResult
func runProgram(_ arguments: [String], input: String? = nil) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let feed = Pipe()
    process.standardInput = feed
    do {
        try process.run()
    } catch {
        FileHandle.standardError.write(Data("benchmark: \(arguments[0]) did not start: \(error)\n".utf8))
        exit(1)
    }
    if let input { feed.fileHandleForWriting.write(Data(input.utf8)) }
    try? feed.fileHandleForWriting.close()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        FileHandle.standardError.write(Data("benchmark: \(arguments.joined(separator: " ")) failed:\n\(text)\n".utf8))
        exit(1)
    }
    return text
}

/// The instructions callgrind collected in a run of `arguments`, all threads together.
func callgrindInstructions(_ arguments: [String], input: String? = nil) -> Double {
    let report = runProgram(["/usr/bin/valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + arguments,
                            input: input)
    guard let line = report.split(separator: "\n").first(where: { $0.contains("Collected :") }),
          let count = Double(line.split(separator: " ").last ?? "")
    else {
        FileHandle.standardError.write(Data("benchmark: no instruction count from callgrind:\n\(report)\n".utf8))
        exit(1)
    }
    return count
}

/// A copy of `folder` (a filled store), so that every counted run starts from the same files.
func copyOfStore(_ folder: URL, into scratch: URL) -> URL {
    let copy = scratch.appendingPathComponent("copy-\(UUID().uuidString)")
    runProgram(["/bin/cp", "-a", folder.path, copy.path])
    return copy
}

func measureInstructions(size: Int, anchorExecutable: String) -> InstructionFigures {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-instructions-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    // Valgrind cannot read the DWARF 5 debugging information of Swift's toolchain (in this
    // program and in the BoringSSL objects the anchor links): it runs copies of both without
    // it, whose code is the same.
    func withoutDebugInformation(_ path: String) -> String {
        let copy = scratch.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
        runProgram(["/usr/bin/objcopy", "--strip-debug", path, copy])
        return copy
    }
    let me = withoutDebugInformation(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path)
    let anchorExecutable = withoutDebugInformation(anchorExecutable)
    let oursFilled = scratch.appendingPathComponent("ours")
    let anchorFilled = scratch.appendingPathComponent("anchor")
    try? FileManager.default.createDirectory(at: anchorFilled, withIntermediateDirectories: true)
    FileHandle.standardError.write(Data("keychain-benchmark: filling both stores to \(size) items\n".utf8))
    // Items 0 ..< size; then one find each, natively, so that whatever a first opening after
    // the fill does (copying a long log back, for one) is done before any count.
    runProgram([me, "--instructions-child", "fill", oursFilled.path, "0", String(size)])
    runProgram([me, "--instructions-child", "find", oursFilled.path, String(size), "1"])
    runProgram([anchorExecutable, anchorFilled.path], input: "add 0 \(size)\nfind 1 \(size)\nquit\n")
    var ours: [Double] = []
    var anchor: [Double] = []
    for operation in ["find", "add"] {
        FileHandle.standardError.write(Data("keychain-benchmark: counting \(operation)s at \(size) items\n".utf8))
        func perCall(_ count: (Int) -> Double) -> Double {
            (count(instructionCalls.more) - count(instructionCalls.fewer)) / Double(instructionCalls.more - instructionCalls.fewer)
        }
        ours.append(perCall { calls in
            callgrindInstructions([me, "--instructions-child", operation, copyOfStore(oursFilled, into: scratch).path,
                                   String(size), String(calls)])
        })
        anchor.append(perCall { calls in
            let command = operation == "find" ? "find \(calls) \(size)" : "add \(size) \(calls)"
            return callgrindInstructions([anchorExecutable, copyOfStore(anchorFilled, into: scratch).path],
                                         input: command + "\nquit\n")
        })
    }
    return InstructionFigures(size: size, ours: ours, anchor: anchor)
}

func printInstructionTable(sizes: [Int], anchorExecutable: String) -> Never {
    let table = sizes.map { measureInstructions(size: $0, anchorExecutable: anchorExecutable) }
    print("Instructions per call (valgrind --tool=callgrind, all threads), ours against the store anchor")
    print("per call = (run of \(instructionCalls.more) calls - run of \(instructionCalls.fewer) calls) / \(instructionCalls.more - instructionCalls.fewer), each run a process of its own on a copy of the filled store")
    print("     items | operation |       ours |     anchor | ours / anchor | target")
    print("-----------+-----------+------------+------------+---------------+-------")
    var missed: [String] = []
    var worst = [0.0, 0.0]
    for row in table {
        for (index, operation) in ["find", "add"].enumerated() {
            let ratio = row.ours[index] / row.anchor[index]
            worst[index] = max(worst[index], ratio)
            if ratio > instructionTarget { missed.append("\(operation)s at \(row.size)") }
            print("\(cell(Double(row.size))) | \(operation.padding(toLength: 9, withPad: " ", startingAt: 0)) | \(cell(row.ours[index]))"
                  + " | \(cell(row.anchor[index]))" + String(format: " | %12.2fx | %@", ratio,
                                                            ratio <= instructionTarget ? "met" : "not met"))
        }
    }
    print(String(format: "verdict: %@ (highest ratio over the sizes: finds %.2fx, adds %.2fx; target at most %.1fx%@)",
                 missed.isEmpty ? "PASS" : "FAIL", worst[0], worst[1], instructionTarget,
                 missed.isEmpty ? "" : "; not met: " + missed.joined(separator: ", ")))
    exit(0)
}
