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

    var bytes: [UInt8] {
        var bytes = [Self.version]
        bytes += withUnsafeBytes(of: (settings.lockInterval ?? Self.noInterval).bigEndian, Array.init)
        bytes.append(settings.lockOnSleep ? 1 : 0)
        bytes += withUnsafeBytes(of: suspendedAtUnlock.bigEndian, Array.init)
        bytes += withUnsafeBytes(of: epoch.bigEndian, Array.init)
        for (index, accessibility) in Accessibility.allCases.enumerated() {
            guard let key = keys[accessibility] else { continue }
            bytes.append(UInt8(index))
            bytes += key.withUnsafeBytes(Array.init)
        }
        return bytes
    }

    init(settings: KeychainSettings, suspendedAtUnlock: Int64, epoch: UInt64, keys: [Accessibility: SymmetricKey]) {
        self.settings = settings
        self.suspendedAtUnlock = suspendedAtUnlock
        self.epoch = epoch
        self.keys = keys
    }

    /// Nil for bytes of another layout: the entry is then treated as absent.
    init?(bytes: [UInt8]) {
        let header = Self.headerSize
        guard bytes.count >= header, bytes[0] == Self.version, (bytes.count - header) % 33 == 0 else { return nil }
        let interval = bytes[1..<5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        settings = KeychainSettings(lockInterval: interval == Self.noInterval ? nil : interval,
                                    lockOnSleep: bytes[5] != 0)
        suspendedAtUnlock = Int64(bitPattern: bytes[6..<14].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        epoch = bytes[14..<22].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        keys = [:]
        let all = Accessibility.allCases
        var offset = header
        while offset < bytes.count {
            guard Int(bytes[offset]) < all.count else { return nil }
            keys[all[Int(bytes[offset])]] = SymmetricKey(data: bytes[offset + 1..<offset + 33])
            offset += 33
        }
    }

    static func == (lhs: UnlockPayload, rhs: UnlockPayload) -> Bool { lhs.bytes == rhs.bytes }
}
