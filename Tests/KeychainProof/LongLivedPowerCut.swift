import Foundation
import Security
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Deleted means gone, also across a power cut, in a process that keeps the keychain open
/// (an app, the Secret Service provider, the sync agent): run in one worker loaded with the
/// power-loss shim, which keeps the durable image of the keychain folder. It adds items, then
/// deletes or updates them one call at a time; after each acknowledged call it rebuilds the
/// folder a power cut at that moment would leave and searches every file of it for the
/// sealed blobs the call superseded (their first 32 bytes: the nonce and the start of the
/// ciphertext), which the key file would decrypt to the old secret.
///
/// A process that exits after each call closes the keychain, and the close's own work hides
/// what a long-lived one leaves; this one never closes it.
///
/// Prints one line: `ok CALLS BLOBS` (calls checked, superseded blobs searched for) or
/// `fail REASON`.
public enum LongLivedPowerCut {
    static let service = "proof.long-lived"

    /// Runs the check in a worker process of `executable` (the tests' helper or the long
    /// run's own program), loaded with `shim`, in a new keychain folder under `work`, for
    /// `calls` deletes and updates. The line the worker printed last, and whether it passed.
    public static func runWorker(executable: URL, work: URL, shim: PowerCutShim, calls: Int) throws -> (passed: Bool, line: String) {
        let folder = work.appendingPathComponent("keychains"), image = work.appendingPathComponent("image")
        for made in [folder, image] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        var worker = try WorkerProcess(
            executable, ["powercut-long-lived", String(calls), image.path, work.appendingPathComponent("checks").path],
            dataHome: work, accessGroups: PowerCutRun.accessGroup,
            environment: ["KEYCHAIN_NO_KERNEL_KEYRING": "1"].merging(shim.environment(watching: folder, image: image)) { $1 })
        let line = worker.finish().last ?? "fail the worker printed nothing"
        let fields = line.split(separator: " ")
        let passed = worker.terminationStatus == 0 && fields.first == "ok" && fields.count == 3 && Int(fields[1]) == calls
        return (passed, line)
    }

    public static func run(calls: Int, keychains folder: URL, image: URL, scratch: URL) -> (passed: Bool, line: String) {
        guard PowerCutControl.isLoaded else { return (false, "fail the power-loss shim is not loaded") }
        var searched = 0
        for index in 0..<calls {
            let status = SecItemAdd([
                kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: "a\(index)",
                kSecValueData: Data("first secret \(index)".utf8),
            ] as CFDictionary, nil)
            guard status == errSecSuccess else { return (false, "fail add \(index): \(status)") }
        }
        for index in 0..<calls {
            do {
                let before = try snapshot(folder, into: scratch.appendingPathComponent("before-\(index)"))
                let query = [kSecClass: kSecClassGenericPassword, kSecAttrService: service,
                             kSecAttrAccount: "a\(index)"] as CFDictionary
                // Deletes and updates in turn: each supersedes the item's sealed blobs.
                let kind = index % 2 == 0 ? "delete" : "update"
                let status = kind == "delete" ? SecItemDelete(query)
                    : SecItemUpdate(query, [kSecValueData: Data("second secret \(index)".utf8)] as CFDictionary)
                guard status == errSecSuccess else { return (false, "fail \(kind) \(index): \(status)") }
                let after = try snapshot(folder, into: scratch.appendingPathComponent("after-\(index)"))
                let superseded = before.sealedBlobs.subtracting(after.sealedBlobs).filter { $0.count >= 32 }
                guard !superseded.isEmpty else { return (false, "fail \(kind) \(index) superseded no sealed blob") }
                let cut = scratch.appendingPathComponent("cut-\(index)")
                try PowerCutShim.restore(image: image, into: cut)
                for file in try FileManager.default.contentsOfDirectory(atPath: cut.path).sorted() {
                    let bytes = try FileBytes.read(cut.appendingPathComponent(file))
                    if let blob = superseded.first(where: { !ByteSearch.offsets(of: Array($0.prefix(32)), in: bytes).isEmpty }) {
                        return (false, "fail after the acknowledged \(kind) of item \(index), a power cut leaves "
                                    + "\(file) holding a superseded sealed blob (\(blob.count) bytes)")
                    }
                }
                searched += superseded.count
            } catch {
                return (false, "fail \(error)")
            }
        }
        return (true, "ok \(calls) \(searched)")
    }

    /// The live keychain as it is now, read from a copy of its files in `copy`: a connection
    /// of this process to the live database would share its POSIX locks, and closing it would
    /// drop the keychain's own.
    static func snapshot(_ folder: URL, into copy: URL) throws -> KeychainSnapshot {
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            let name = "login.keychain-db" + suffix
            let source = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try Data(FileBytes.read(source)).write(to: copy.appendingPathComponent(name))
        }
        return try KeychainSnapshot(database: copy.appendingPathComponent("login.keychain-db"))
    }
}
