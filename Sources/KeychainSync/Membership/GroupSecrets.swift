import Crypto
import Foundation
import KeychainCore

/// The secrets every member of a sync group shares: the item-id key, which never rotates, and
/// one AES-256 group key per epoch, from epoch 0 to `currentEpoch` (a newcomer is given them
/// all, so it reads older records too).
///
/// Serialized form (integers big-endian), what the agent keeps in a ThisDeviceOnly keychain
/// item and what key wraps seal:
///
/// | field        | bytes                                    |
/// |--------------|------------------------------------------|
/// | magic        | 4, `KSGS`                                |
/// | format       | 1, currently 1                           |
/// | id key       | 32                                       |
/// | key count    | 4, at least 1: epochs 0 ..< count        |
/// | epoch keys   | 32 each, in epoch order                  |
///
/// Its description shows the current epoch only.
package struct GroupSecrets: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    static let keyCount = 32

    private let idKey: SymmetricKey
    private var epochKeys: [SymmetricKey]
    /// HMAC-SHA256 under `idKey`, keyed once: an item id is computed for every record sent
    /// and received.
    private let idHasher: KeyedHMACSHA256

    private init(idKey: SymmetricKey, epochKeys: [SymmetricKey]) {
        self.idKey = idKey
        self.epochKeys = epochKeys
        idHasher = KeyedHMACSHA256(key: idKey)
    }

    /// Fresh secrets of a new group, at epoch 0.
    package static func new() -> GroupSecrets {
        GroupSecrets(idKey: SymmetricKey(size: .bits256), epochKeys: [SymmetricKey(size: .bits256)])
    }

    package var currentEpoch: UInt64 { UInt64(epochKeys.count - 1) }

    /// The group key of `epoch`, nil when these secrets do not reach it.
    package func key(epoch: UInt64) -> SymmetricKey? {
        epoch < UInt64(epochKeys.count) ? epochKeys[Int(epoch)] : nil
    }

    /// The record id of an item: HMAC-SHA256 of its identity bytes under the id key, the same
    /// on every member for the same item.
    package func itemID(for identityBytes: Data) -> Data {
        identityBytes.withUnsafeBytes { idHasher.authenticationCode(for: $0) }
    }

    /// A new epoch with a fresh random key, for a removal: removed members never learn it.
    package mutating func rotate() -> UInt64 {
        epochKeys.append(SymmetricKey(size: .bits256))
        return currentEpoch
    }

    /// A new epoch with the previous epoch's key, for adding a member.
    package mutating func advanceKeepingKey() -> UInt64 {
        epochKeys.append(epochKeys[epochKeys.count - 1])
        return currentEpoch
    }

    /// These secrets cut at `epoch` (for a key wrap of that epoch); nil past the current one.
    func through(epoch: UInt64) -> GroupSecrets? {
        guard epoch <= currentEpoch else { return nil }
        return GroupSecrets(idKey: idKey, epochKeys: Array(epochKeys[...Int(epoch)]))
    }

    package var serialized: Data {
        SyncField.message(.groupSecrets, [.fixed(Self.bytes(of: idKey)), .uint32(UInt32(epochKeys.count))]
                          + epochKeys.map { .fixed(Self.bytes(of: $0)) })
    }

    package init(serialized: Data) throws(SyncRejection) {
        var reader = SyncFieldReader(serialized, kind: .groupSecrets)
        try reader.header()
        idKey = SymmetricKey(data: try reader.fixed(Self.keyCount))
        idHasher = KeyedHMACSHA256(key: idKey)
        let count = try reader.count(entrySize: Self.keyCount)
        guard count >= 1 else { throw .malformed(.groupSecrets) }
        var keys: [SymmetricKey] = []
        keys.reserveCapacity(count)
        for _ in 0..<count { keys.append(SymmetricKey(data: try reader.fixed(Self.keyCount))) }
        try reader.end()
        epochKeys = keys
    }

    private static func bytes(of key: SymmetricKey) -> Data {
        key.withUnsafeBytes { Data($0) }
    }

    package var description: String { "GroupSecrets(epoch \(currentEpoch))" }
    package var debugDescription: String { description }
}
