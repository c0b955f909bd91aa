import Crypto
import Foundation

/// The signatures of sync's messages: ECDSA P-256 with SHA-256 over the message's bytes before
/// the signature, stored as the 64-byte raw form (r then s, each 32 bytes big-endian), which
/// `P256.Signing.ECDSASignature(rawRepresentation:).derRepresentation` turns into what
/// `openssl dgst -sha256 -verify` reads.
enum SyncSignature {
    static let size = 64

    static func sign(_ body: Data, with key: P256.Signing.PrivateKey) throws -> Data {
        try key.signature(for: body).rawRepresentation
    }

    static func isValid(_ signature: Data, for body: Data, by key: P256.Signing.PublicKey) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.isValidSignature(signature, for: body)
    }
}
