import Foundation

/// One record of a removed device that stays valid after its removal, as the removal roster
/// lists it: its item id, its exact version and the digest of its signed bytes
/// (``SealedRecord/digest``). Members accept a removed device's record only when the roster
/// that removed it vouches for it, so a device that still holds an old epoch's key and its
/// signing key cannot make a record that anyone accepts after its removal: not a new version,
/// and not new content under a version that stays valid.
///
/// Encoded in 96 bytes: the item id (32), the version's encoded form (32), the digest (32).
/// Rosters list vouched records in ascending order of these bytes.
package struct VouchedRecord: Hashable, Sendable, Comparable {
    static let digestCount = 32
    static let encodedCount = SealedRecord.itemIDCount + RecordVersion.encodedCount + digestCount

    package let itemID: Data
    package let version: RecordVersion
    package let digest: Data

    package init(itemID: Data, version: RecordVersion, digest: Data) {
        self.itemID = Data(itemID)
        self.version = version
        self.digest = Data(digest)
    }

    var encoded: Data { itemID + version.encoded + digest }

    /// The author whose record this is: the device its version names.
    package var author: DeviceID { version.device }

    /// The order of the encoded bytes: item id, then version, then digest.
    package static func < (left: VouchedRecord, right: VouchedRecord) -> Bool {
        left.encoded.lexicographicallyPrecedes(right.encoded)
    }
}
