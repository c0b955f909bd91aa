import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What someone holding a copy of a keychain's folder (and this machine's secret, as any
/// process of the user has) does with its keybag rows: tries to open them with the device
/// key, as a keychain without a password would wrap them.
///
/// It reimplements the documented wrapping with swift-crypto rather than calling the library
/// under test: a wrapped key is AES-256-GCM's combined form (12-byte nonce, ciphertext,
/// 16-byte tag) under associated data `swift-keychain keybag <name>`; the wrapping key is the
/// 32-byte `<name>.keychain-key` file, or for ThisDeviceOnly classes HKDF-SHA256 of it with
/// the machine secret as salt and `swift-keychain this device only` as info. The machine
/// secret is HKDF-SHA256 of `$XDG_STATE_HOME/swift-keychain/machine-secret` with
/// `/etc/machine-id` as salt and `swift-keychain machine secret` as info.
public struct DeviceKeyAttacker {
    /// The keybag rows of classes A and C: an unlock opens them, and a password must guard them.
    public static let lockedClassNames = ["ak", "ck", "aku", "cku", "akpu"]
    static let deviceWrappings = ["device", "device+machine"]

    let keys: [(wrapping: String, key: SymmetricKey)]

    public init(deviceKeyFile: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let device = try FileBytes.read(deviceKeyFile)
        guard device.count == 32 else { throw ProofFailure("the device key \(deviceKeyFile.lastPathComponent) is not 32 bytes") }
        let deviceKey = SymmetricKey(data: device)
        var keys = [("device", deviceKey)]
        if let secret = try? FileBytes.read(Self.machineSecretFile(environment)), secret.count == 32 {
            let machineID = (try? FileBytes.read(URL(fileURLWithPath: "/etc/machine-id"))) ?? []
            let machine = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: secret), salt: machineID,
                info: Array("swift-keychain machine secret".utf8), outputByteCount: 32)
            let bound = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: deviceKey, salt: machine.withUnsafeBytes { Array($0) },
                info: Array("swift-keychain this device only".utf8), outputByteCount: 32)
            keys.append(("device+machine", bound))
        }
        self.keys = keys
    }

    static func machineSecretFile(_ environment: [String: String]) -> URL {
        let state: URL
        if let path = environment["XDG_STATE_HOME"], path.hasPrefix("/") {
            state = URL(fileURLWithPath: path)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            state = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        return state.appendingPathComponent("swift-keychain/machine-secret")
    }

    /// The wrapping (`device` or `device+machine`) under which `wrapped` opens as key `name`,
    /// or nil when it opens under neither.
    public func opening(name: String, wrapped: [UInt8]) -> String? {
        guard let box = try? AES.GCM.SealedBox(combined: wrapped) else { return nil }
        let aad = Array("swift-keychain keybag \(name)".utf8)
        for (wrapping, key) in keys where (try? AES.GCM.open(box, using: key, authenticating: aad)) != nil {
            return wrapping
        }
        return nil
    }

    /// Carving, for rows no page's cell array points to any more (a freed cell, a freed
    /// page): a keybag record's body is the name, the wrapping and the wrapped key, back to
    /// back, so every `device` text in `bytes` is tried as the wrapping of a 32-byte key of
    /// each class A or C name. The offsets and names of those that open.
    public func carve(_ bytes: [UInt8]) -> [(offset: Int, name: String)] {
        let wrappedLength = 12 + 32 + 16
        var found: [(Int, String)] = []
        for wrapping in Self.deviceWrappings {
            for offset in ByteSearch.offsets(of: Array(wrapping.utf8), in: bytes) {
                let start = offset + wrapping.utf8.count
                guard start + wrappedLength <= bytes.count else { continue }
                let candidate = Array(bytes[start..<start + wrappedLength])
                for name in Self.lockedClassNames where opening(name: name, wrapped: candidate) != nil {
                    found.append((offset, name))
                }
            }
        }
        return found
    }
}

/// Raw byte search, as `grep -c` on the files would do it.
public enum ByteSearch {
    /// The offsets at which `needle` occurs in `haystack`: memchr to the next candidate
    /// first byte, memcmp for the rest, which stays fast on files of megabytes in a debug build.
    public static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard let first = needle.first, needle.count <= haystack.count else { return [] }
        var found: [Int] = []
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let base = hay.baseAddress, let pattern = pin.baseAddress else { return }
                var start = 0
                let last = hay.count - pin.count
                while start <= last, let hit = memchr(base + start, Int32(first), last - start + 1) {
                    let offset = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hit, pattern, pin.count) == 0 { found.append(offset) }
                    start = offset + 1
                }
            }
        }
        return found
    }

    /// The files of `folder` (database, log, shared memory, keys) that hold `needle`.
    public static func files(in folder: URL, holding needle: [UInt8]) throws -> [String] {
        var holding: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let bytes = try FileBytes.read(folder.appendingPathComponent(name))
            if !offsets(of: needle, in: bytes).isEmpty { holding.append(name) }
        }
        return holding
    }
}
