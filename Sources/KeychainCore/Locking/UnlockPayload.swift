import Crypto
import Foundation

/// What an unlock leaves in the ``UnlockedKeyCache``: the opened class keys, and for class A
/// the settings that decide when it locks again, so that every process applies the same.
///
/// Layout: version (1), lock interval in seconds (4, big-endian; all ones: none), lock on
/// sleep (1), suspended nanoseconds at unlock (8, big-endian), the keys' epoch (8,
/// big-endian), then for each key its accessibility's index (1) and its 32 bytes. A class
/// whose key did not open on this machine (ThisDeviceOnly keys of a copied keychain) is
/// simply absent. An entry of an older layout reads as absent: the keychain is then locked.
struct UnlockPayload: Equatable {
    var settings: KeychainSettings
    var suspendedAtUnlock: Int64
    /// Which generation of class keys these are (see ``KeybagTable/keyEpoch()``).
    var epoch: UInt64
    var keys: [Accessibility: SymmetricKey]

    private static let version: UInt8 = 2
    private static let noInterval = UInt32.max
    private static let headerSize = 22
    private static let keySize = 32

    /// The payload's bytes, written in place into memory that is zeroed when released.
    var bytes: SecretBytes {
        let present = Accessibility.allCases.enumerated().compactMap { index, accessibility in
            keys[accessibility].map { (index, $0) }
        }
        return SecretBytes(count: Self.headerSize + present.count * (1 + Self.keySize)) { buffer in
            ByteWriter.fill(buffer) { writer in
                writer.write(byte: Self.version)
                writer.write(bigEndian: settings.lockInterval ?? Self.noInterval)
                writer.write(byte: settings.lockOnSleep ? 1 : 0)
                writer.write(bigEndian: suspendedAtUnlock)
                writer.write(bigEndian: Int64(bitPattern: epoch))
                for (index, key) in present {
                    writer.write(byte: UInt8(index))
                    key.withUnsafeBytes { writer.write($0) }
                }
            }
        }
    }

    init(settings: KeychainSettings, suspendedAtUnlock: Int64, epoch: UInt64, keys: [Accessibility: SymmetricKey]) {
        self.settings = settings
        self.suspendedAtUnlock = suspendedAtUnlock
        self.epoch = epoch
        self.keys = keys
    }

    /// Nil for bytes of another layout: the entry is then treated as absent.
    init?(bytes: SecretBytes) {
        guard let parsed = bytes.withUnsafeBytes({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> UnlockPayload? {
        guard bytes.count >= headerSize, bytes[0] == version, (bytes.count - headerSize) % (1 + keySize) == 0 else {
            return nil
        }
        func integer<T: FixedWidthInteger>(at offset: Int, as type: T.Type) -> T {
            bytes[offset..<offset + MemoryLayout<T>.size].reduce(T(0)) { $0 << 8 | T($1) }
        }
        let interval = integer(at: 1, as: UInt32.self)
        var payload = UnlockPayload(
            settings: KeychainSettings(lockInterval: interval == noInterval ? nil : interval, lockOnSleep: bytes[5] != 0),
            suspendedAtUnlock: Int64(bitPattern: integer(at: 6, as: UInt64.self)),
            epoch: integer(at: 14, as: UInt64.self), keys: [:])
        let all = Accessibility.allCases
        var offset = headerSize
        while offset < bytes.count {
            guard Int(bytes[offset]) < all.count else { return nil }
            payload.keys[all[Int(bytes[offset])]] = SymmetricKey(
                data: UnsafeRawBufferPointer(rebasing: bytes[offset + 1..<offset + 1 + keySize]))
            offset += 1 + keySize
        }
        return payload
    }

    static func == (lhs: UnlockPayload, rhs: UnlockPayload) -> Bool { lhs.bytes == rhs.bytes }
}
