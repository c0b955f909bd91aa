import Foundation

/// What a device that wants to join posts for the members to see: the group and genesis it
/// joins, its public identity, and its own signature over them.
///
/// Encoded form (integers big-endian):
///
/// | field         | bytes                                                          |
/// |---------------|----------------------------------------------------------------|
/// | magic         | 4, `KSJR`                                                      |
/// | format        | 1, currently 1                                                 |
/// | group id      | 16                                                             |
/// | genesis hash  | 32                                                             |
/// | device        | 4-byte length, then a DevicePublicIdentity's encoded form      |
/// | signature     | 64, ECDSA P-256 SHA-256 (raw r‖s) by the device over every byte before it |
///
/// The self-signature proves the joiner holds the private key of the identity the code names;
/// the code (JoinCode), compared by the user, is what ties the request to the device in hand.
package struct JoinRequest: Sendable {
    package let group: GroupID
    package let genesisHash: Data
    package let device: DevicePublicIdentity
    package let encoded: Data

    package static func make(group: GroupID, genesisHash: Data, device: DeviceIdentity) throws(MembershipError) -> JoinRequest {
        guard genesisHash.count == Roster.hashCount else { throw .badGenesisHash }
        let body = SyncField.message(.joinRequest, [.fixed(group.bytes), .fixed(genesisHash), .sized(device.publicIdentity.encoded)])
        do { return try JoinRequest(encoded: body + device.signature(for: body)) } catch { throw .cryptoFailure }
    }

    /// Parses a request and checks its self-signature.
    package init(encoded: Data) throws(SyncRejection) {
        let kind = SyncMessageKind.joinRequest
        var reader = SyncFieldReader(encoded, kind: kind)
        try reader.header()
        group = try GroupID(bytes: reader.fixed(GroupID.count), kind: kind)
        genesisHash = try reader.fixed(Roster.hashCount)
        do { device = try DevicePublicIdentity(encoded: reader.sized(maximum: 1024)) } catch { throw .malformed(kind) }
        let signedCount = reader.offset
        let signature = try reader.fixed(SyncSignature.size)
        try reader.end()
        let encoded = Data(encoded)
        guard SyncSignature.isValid(signature, for: encoded.prefix(signedCount), by: device.signingKey)
        else { throw .badSignature(kind) }
        self.encoded = encoded
    }

    /// The code the joiner shows and the approver types.
    package var code: JoinCode {
        JoinCode(genesisHash: genesisHash, publicIdentity: device.encoded)
    }
}
