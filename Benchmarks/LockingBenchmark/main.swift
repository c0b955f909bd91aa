// What a keychain password costs: the unlock (one scrypt run), a password change at 10 and
// at 100,000 items (it replaces the class A and C keys and reseals every item of those
// classes, so it grows with them: the table shows the cost per item), and the wall time of
// a fresh process that finds an item in an unlocked keychain without the password, against
// one that must unlock it first.
//
//   swift run -c release keychain-lock-benchmark [--items N]   (default N: 100000)
//   keychain-lock-benchmark --find-once PATH ACCOUNT [PASSWORD] (the fresh process)
//   keychain-lock-benchmark --prepare PATH N                    (a keychain to profile it on)
import Foundation
import Security

func fail(_ what: String, _ status: OSStatus) -> Never {
    FileHandle.standardError.write(Data("keychain-lock-benchmark: \(what) failed with \(status)\n".utf8))
    exit(1)
}

func check(_ status: OSStatus, _ what: String) {
    if status != errSecSuccess { fail(what, status) }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Milliseconds `body` takes.
func milliseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func item(_ keychain: SecKeychain, _ index: Int) -> [String: Any] {
    [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench.example.com",
     kSecAttrAccount as String: "user-\(index)", kSecUseKeychain as String: keychain]
}

func open(_ path: String) -> SecKeychain {
    var keychain: SecKeychain?
    check(SecKeychainOpen(path, &keychain), "open")
    return keychain!
}

var arguments = Array(CommandLine.arguments.dropFirst())

// The fresh process: unlock if given a password, then one find; prints nothing on success.
if arguments.first == "--find-once", arguments.count >= 3 {
    let keychain = open(arguments[1])
    if arguments.count == 4 {
        let password = Array(arguments[3].utf8)
        check(SecKeychainUnlock(keychain, UInt32(password.count), password, true), "unlock")
    }
    var result: CFTypeRef?
    let query = item(keychain, Int(arguments[2]) ?? 0).merging([kSecReturnData as String: true]) { $1 }
    check(SecItemCopyMatching(query as CFDictionary, &result), "find")
    exit(result is Data ? 0 : 1)
}

/// A keychain with a password and `count` items.
func makeKeychain(_ name: String, count: Int) -> SecKeychain {
    var keychain: SecKeychain?
    check(SecKeychainCreate(name, UInt32(password.count), password, false, nil, &keychain), "create")
    let secret = Data(repeating: 0x5A, count: 32)
    for index in 0..<count {
        check(SecItemAdd(item(keychain!, index).merging([kSecValueData as String: secret]) { $1 } as CFDictionary, nil), "add")
    }
    return keychain!
}

let password = Array("benchmark password".utf8)

// A keychain left in place, for profiling the fresh process by hand.
if arguments.first == "--prepare", arguments.count == 3, let count = Int(arguments[2]) {
    // A folder of its own: the library refuses a keychain in a folder others may write.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-lock-benchmark-prepared")
    print(folder.path)
    KeychainEnvironment.withValue(KeychainEnvironment(directory: folder, accessGroups: ["bench"])) {
        _ = makeKeychain(arguments[1], count: count)
    }
    exit(0)
}

var items = 100_000
if let index = arguments.firstIndex(of: "--items"), index + 1 < arguments.count, let count = Int(arguments[index + 1]) {
    items = count
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-lock-benchmark-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }
let environment = KeychainEnvironment(directory: folder, accessGroups: ["bench"])
let other = Array("another password".utf8)

/// Median of `rounds` password changes, back and forth.
func changeTimes(_ keychain: SecKeychain, rounds: Int = 5) -> Double {
    var times: [Double] = []
    for round in 0..<rounds {
        let (old, new) = round % 2 == 0 ? (password, other) : (other, password)
        times.append(milliseconds {
            check(SecKeychainChangePassword(keychain, UInt32(old.count), old, UInt32(new.count), new), "change password")
        })
    }
    if rounds % 2 == 1 {
        check(SecKeychainChangePassword(keychain, UInt32(other.count), other, UInt32(password.count), password), "change back")
    }
    return median(times)
}

/// Median wall time of `runs` fresh processes doing one find (after an unlock when given a
/// password), from spawn to exit. posix_spawn and waitpid rather than Foundation's Process,
/// whose waitUntilExit polls its run loop every 50 ms on Linux (it measured 50 ms a run).
func freshProcessTimes(_ keychain: SecKeychain, unlockWith password: String?, runs: Int = 15) -> Double {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let arguments = [executable, "--find-once", keychain.path, "7"] + (password.map { [$0] } ?? [])
    let environment = ProcessInfo.processInfo.environment.merging(["KEYCHAIN_ACCESS_GROUPS": "bench"]) { $1 }
        .map { "\($0.key)=\($0.value)" }
    var times: [Double] = []
    for _ in 0..<runs {
        var status: Int32 = 0
        times.append(milliseconds {
            let argv = arguments.map { strdup($0) } + [nil]
            let envp = environment.map { strdup($0) } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, executable, nil, nil, argv, envp) == 0 else { fail("starting a process", errSecIO) }
            waitpid(pid, &status, 0)
        })
        if status != 0 { fail("the fresh process", errSecIO) }
    }
    return median(times)
}

KeychainEnvironment.withValue(environment) {
    let small = makeKeychain("ten", count: 10)
    FileHandle.standardError.write(Data("keychain-lock-benchmark: adding \(items) items\n".utf8))
    let large = makeKeychain("large", count: items)

    var unlocks: [Double] = []
    for _ in 0..<5 {
        check(SecKeychainLock(small), "lock")
        unlocks.append(milliseconds { check(SecKeychainUnlock(small, UInt32(password.count), password, true), "unlock") })
    }
    let unlock = median(unlocks)
    let changeSmall = changeTimes(small)
    let changeLarge = changeTimes(large)

    check(SecKeychainUnlock(large, UInt32(password.count), password, true), "unlock")
    let freshUnlocked = freshProcessTimes(large, unlockWith: nil)
    check(SecKeychainLock(large), "lock")
    let freshWithPassword = freshProcessTimes(large, unlockWith: String(decoding: password, as: UTF8.self))

    print("Keychain passwords: median wall time, milliseconds (scrypt N=2^16, r=8, p=1)")
    func row(_ label: String, _ value: Double) {
        print(label.padding(toLength: 54, withPad: " ", startingAt: 0) + "| " + String(format: "%8.1f", value))
    }
    row("unlock (one KDF run)", unlock)
    row("change password, 10 items", changeSmall)
    row("change password, \(items) items", changeLarge)
    row("fresh process: find in an unlocked keychain", freshUnlocked)
    row("fresh process: unlock with the password, then find", freshWithPassword)
    // The items are class A (the default), so a change reseals every one of them.
    let perItem = (changeLarge - changeSmall) * 1_000 / Double(items - 10)
    let noKDF = freshUnlocked < unlock / 2
    print(String(format: "change at %d items / at 10 items: %.2fx, %.1f µs per item resealed; a fresh process without the password is %.1fx faster than one that unlocks",
                 items, changeLarge / changeSmall, perItem, freshWithPassword / freshUnlocked))
    // The bound: 100 µs an item, 10 s for a keychain of 100,000 class A items.
    print(perItem < 100 && noKDF
        ? "verdict: PASS (a password change reseals items at under 100 µs each; fresh processes read an unlocked keychain without the KDF)"
        : "verdict: FAIL (\(String(format: "%.1f", perItem)) µs per item resealed, fresh find \(String(format: "%.1f", freshUnlocked)) ms against unlock \(String(format: "%.1f", unlock)) ms)")
}
