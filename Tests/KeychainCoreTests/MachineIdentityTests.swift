import Crypto
import Foundation
@testable import KeychainCore
import Testing
import TestSupport

/// A changed machine identity is detected: the machine secret records (as an HMAC under the
/// secret) the /etc/machine-id it was first combined with, and a later load on another id
/// is told apart from one on the same id.
@Suite struct MachineIdentityTests {
    let folder = TestScratch.folder("machine-identity")

    func machineID(_ name: String, _ id: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data("\(id)\n".utf8).write(to: url)
        return url
    }

    func bytes(_ key: SymmetricKey) -> Data { key.withUnsafeBytes { Data($0) } }

    /// A machine secret loaded on a first machine id, and a second id to load it on.
    func secretLoadedOnFirstID() throws -> (secret: URL, first: URL, second: URL, original: SymmetricKey) {
        let secret = folder.appendingPathComponent("state/machine-secret")
        let first = try machineID("first", "0123456789abcdef0123456789abcdef")
        let second = try machineID("second", "fedcba9876543210fedcba9876543210")
        return (secret, first, second, try MachineSecret.load(at: secret, machineID: first))
    }

    @Test("ThisDeviceOnly binding: a changed machine id changes the key and is detected; the first id is not")
    func changedIDIsDetected() throws {
        let (secret, first, second, original) = try secretLoadedOnFirstID()
        let record = try Data(contentsOf: MachineSecret.recordLocation(of: secret))
        #expect(record.count == 32)
        // The record does not reveal the id.
        #expect(record.range(of: Data("0123456789abcdef".utf8)) == nil)
        let raw = SymmetricKey(data: try Data(contentsOf: secret))
        #expect(try !MachineSecret.machineIDChanged(try Data(contentsOf: first), secret: raw, at: secret))
        #expect(try MachineSecret.machineIDChanged(try Data(contentsOf: second), secret: raw, at: secret))

        let moved = try MachineSecret.load(at: secret, machineID: second)
        #expect(bytes(moved) != bytes(original))
        // Loading on another id never rewrites the record: the first id stays the reference.
        #expect(try Data(contentsOf: MachineSecret.recordLocation(of: secret)) == record)
        #expect(bytes(try MachineSecret.load(at: secret, machineID: first)) == bytes(original))
    }

    @Test("a machine secret made before records were kept gets one for the id it is loaded on")
    func missingRecordIsMade() throws {
        let (secret, first, second, original) = try secretLoadedOnFirstID()
        try FileManager.default.removeItem(at: MachineSecret.recordLocation(of: secret))
        #expect(bytes(try MachineSecret.load(at: secret, machineID: first)) == bytes(original))
        let raw = SymmetricKey(data: try Data(contentsOf: secret))
        #expect(try !MachineSecret.machineIDChanged(try Data(contentsOf: first), secret: raw, at: secret))
        #expect(try MachineSecret.machineIDChanged(try Data(contentsOf: second), secret: raw, at: secret))
    }
}
