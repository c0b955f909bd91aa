import Foundation
import Glibc
@testable import KeychainCore
import Testing
import TestSupport

/// Secrets in memory: the key material the library keeps is held out of swap where the
/// system allows it, and the plaintexts it is done with are overwritten where they lie.
@Suite struct SecretMemoryTests {
    /// The bytes `mlock` may lock in this process: unlimited for a process that may lock
    /// memory (root), else the soft limit.
    static var lockableBytes: UInt64 {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0 else { return 0 }
        return geteuid() == 0 ? .max : UInt64(limit.rlim_cur)
    }

    @Test("Keys the library keeps are locked in memory whenever the system allows it")
    func keptKeysAreLocked() {
        let key = SecretBytes(count: 32) { $0.initializeMemory(as: UInt8.self, repeating: 0xA5) }
        // Best effort, as documented: locked whenever the limit leaves room for a page.
        #expect(key.isLocked == (Self.lockableBytes >= 2 * 4096))
        #expect(key.withUnsafeBytes { Array($0) } == [UInt8](repeating: 0xA5, count: 32))
    }

    @Test("zeroize overwrites a plaintext where it lies, not a copy")
    func zeroizeClearsInPlace() {
        var data = Data((0..<64).map { UInt8($0 | 0x80) })
        let dataAddress = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        data.zeroize()
        #expect(data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } == dataAddress)
        #expect(data.count == 64 && data.allSatisfy { $0 == 0 })

        var bytes = [UInt8](repeating: 0x5A, count: 48)
        let arrayAddress = bytes.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        bytes.zeroize()
        #expect(bytes.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } == arrayAddress)
        #expect(bytes.count == 48 && bytes.allSatisfy { $0 == 0 })
    }

    @Test("The device key is read, kept and compared without changing what the file holds")
    func deviceKeyReadsBack() throws {
        let folder = TestScratch.folder("device-key")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = KeychainFiles(directory: folder, name: "key")
        let url = files.deviceKey
        // The test process selects no TPM: the key is kept in its file.
        let created = try DeviceKeyFile.load(files, create: true)
        let again = try DeviceKeyFile.load(files, create: false)
        // The buffers the reads went through were cleared; the keys are whole and equal.
        #expect(created == again)
        let onDisk = try Data(contentsOf: url)
        #expect(onDisk.count == 32 && created.withUnsafeBytes { Data($0) } == onDisk)
    }
}
