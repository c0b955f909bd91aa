import Crypto
import Foundation

/// This device's identity with its private keys, made on the device; the private keys never
/// leave it (the agent keeps `serialized` in a ThisDeviceOnly keychain item).
///
/// Serialized form (integers big-endian):
///
/// | field            | bytes                                  |
/// |------------------|----------------------------------------|
/// | magic            | 4, `KSDI`                              |
/// | format           | 1, currently 1                         |
/// | id               | 16                                     |
/// | name             | 4-byte length, then 1 to 255 bytes UTF-8 |
/// | signing key      | 32, P-256 private scalar               |
/// | agreement key    | 32, P-256 private scalar               |
///
/// Its description shows the id and name only.
package struct DeviceIdentity: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    static let privateKeyCount = 32

    package let id: DeviceID
    package let name: String
    let signingKey: P256.Signing.PrivateKey
    let agreementKey: P256.KeyAgreement.PrivateKey

    /// A new identity with fresh keys; `name` (the host name by default, chosen by the caller)
    /// is made to follow the name rules: characters that could fool a terminal become `?`.
    package static func generate(name: String) -> DeviceIdentity {
        DeviceIdentity(id: .random(), name: DeviceName.sanitized(name),
                       signingKey: P256.Signing.PrivateKey(), agreementKey: P256.KeyAgreement.PrivateKey())
    }

    private init(id: DeviceID, name: String, signingKey: P256.Signing.PrivateKey, agreementKey: P256.KeyAgreement.PrivateKey) {
        self.id = id
        self.name = name
        self.signingKey = signingKey
        self.agreementKey = agreementKey
    }

    package var publicIdentity: DevicePublicIdentity {
        DevicePublicIdentity(id: id, name: name, signingKey: signingKey.publicKey, agreementKey: agreementKey.publicKey)
    }

    /// The ECDSA P-256 signature (64-byte raw form) of `message`: for messages of the agent's
    /// own that need a device's proof.
    package func signature(for message: Data) throws -> Data {
        try SyncSignature.sign(message, with: signingKey)
    }

    package var serialized: Data {
        SyncField.message(.deviceIdentity, [
            .fixed(id.bytes), .sized(Data(name.utf8)),
            .fixed(signingKey.rawRepresentation), .fixed(agreementKey.rawRepresentation),
        ])
    }

    package init(serialized: Data) throws(SyncRejection) {
        let kind = SyncMessageKind.deviceIdentity
        var reader = SyncFieldReader(serialized, kind: kind)
        try reader.header()
        id = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: kind)
        let nameBytes = try reader.sized(maximum: DeviceName.maximumBytes)
        let signing = try reader.fixed(Self.privateKeyCount)
        let agreement = try reader.fixed(Self.privateKeyCount)
        try reader.end()
        guard let name = String(validating: nameBytes, as: UTF8.self), DeviceName.isValid(name),
              let signingKey = try? P256.Signing.PrivateKey(rawRepresentation: signing),
              let agreementKey = try? P256.KeyAgreement.PrivateKey(rawRepresentation: agreement)
        else { throw .malformed(kind) }
        self.name = name
        self.signingKey = signingKey
        self.agreementKey = agreementKey
    }

    package var description: String { "DeviceIdentity(\(id.shortHex), \(name))" }
    package var debugDescription: String { description }
}
