import Crypto
import Foundation

/// What the other members know of a device: its id, its name and its two public keys.
///
/// Encoded form (integers big-endian):
///
/// | field          | bytes                                                   |
/// |----------------|---------------------------------------------------------|
/// | magic          | 4, `KSDP`                                               |
/// | format         | 1, currently 1                                          |
/// | id             | 16                                                      |
/// | name           | 4-byte length, then 1 to 255 bytes of UTF-8 (DeviceName) |
/// | signing key    | 65, P-256 ANSI X9.63 uncompressed point                 |
/// | agreement key  | 65, P-256 ANSI X9.63 uncompressed point                 |
package struct DevicePublicIdentity: Sendable, Equatable {
    static let keyCount = 65

    package let id: DeviceID
    package let name: String
    package let signingKey: P256.Signing.PublicKey
    package let agreementKey: P256.KeyAgreement.PublicKey

    init(id: DeviceID, name: String, signingKey: P256.Signing.PublicKey, agreementKey: P256.KeyAgreement.PublicKey) {
        self.id = id
        self.name = name
        self.signingKey = signingKey
        self.agreementKey = agreementKey
    }

    package var encoded: Data {
        SyncField.message(.devicePublicIdentity, [
            .fixed(id.bytes), .sized(Data(name.utf8)),
            .fixed(signingKey.x963Representation), .fixed(agreementKey.x963Representation),
        ])
    }

    package init(encoded: Data) throws(SyncRejection) {
        let kind = SyncMessageKind.devicePublicIdentity
        var reader = SyncFieldReader(encoded, kind: kind)
        try reader.header()
        id = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: kind)
        let nameBytes = try reader.sized(maximum: DeviceName.maximumBytes)
        let signing = try reader.fixed(Self.keyCount)
        let agreement = try reader.fixed(Self.keyCount)
        try reader.end()
        guard let name = String(validating: nameBytes, as: UTF8.self), DeviceName.isValid(name),
              let signingKey = try? P256.Signing.PublicKey(x963Representation: signing),
              let agreementKey = try? P256.KeyAgreement.PublicKey(x963Representation: agreement)
        else { throw .malformed(kind) }
        self.name = name
        self.signingKey = signingKey
        self.agreementKey = agreementKey
    }

    package static func == (left: DevicePublicIdentity, right: DevicePublicIdentity) -> Bool {
        left.encoded == right.encoded
    }
}
