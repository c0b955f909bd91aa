internal import Crypto
import Foundation

extension EllipticCurvePrivateKey {
    /// The ECDH shared secret with a public key: the x-coordinate of the shared point, as many
    /// bytes as a coordinate of the curve (32, 48 or 66). Standard and cofactor ECDH agree on
    /// the NIST curves, whose cofactor is 1.
    ///
    /// Keys of different curves are errSecDecode, as Apple reports a shared secret it cannot
    /// compute.
    func sharedSecret(with publicKey: EllipticCurvePublicKey) throws(KeyFailure) -> SharedSecret {
        guard publicKey.curve == curve else {
            throw KeyFailure(.decode, "failed to compute the shared secret: the keys are on different curves")
        }
        // swift-crypto's key-agreement keys are other types than its signing keys: the
        // scalar crosses over, and its copy here is cleared when done.
        var scalar = self.scalar
        defer { scalar.resetBytes(in: 0..<scalar.count) }
        do {
            switch publicKey {
            case .p256(let peer):
                return try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
                    .sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(rawRepresentation: peer.rawRepresentation))
            case .p384(let peer):
                return try P384.KeyAgreement.PrivateKey(rawRepresentation: scalar)
                    .sharedSecretFromKeyAgreement(with: P384.KeyAgreement.PublicKey(rawRepresentation: peer.rawRepresentation))
            case .p521(let peer):
                return try P521.KeyAgreement.PrivateKey(rawRepresentation: scalar)
                    .sharedSecretFromKeyAgreement(with: P521.KeyAgreement.PublicKey(rawRepresentation: peer.rawRepresentation))
            }
        } catch {
            throw KeyFailure(.decode, "failed to compute the shared secret")
        }
    }
}
