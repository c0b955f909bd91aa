internal import Crypto
import Foundation
@_implementationOnly import KeychainCore

/// A P-256 private key that lives in a TPM 2.0: its public key, and the blob (the key's
/// public area and its private area, encrypted under the TPM's storage key) from which only
/// that TPM can load it to sign. No private scalar exists outside the TPM.
struct TPMHeldKey: Sendable {
    let publicKey: P256.Signing.PublicKey
    /// The key's TPM2B_PUBLIC and TPM2B_PRIVATE, marshaled: no use without its TPM.
    let blob: Data

    /// The bytes of an uncompressed P-256 point, which the stored form starts with.
    private static let pointLength = 65

    /// The key's stored form: its public point (`04 ‖ X ‖ Y`), then the blob. The point lets
    /// the key's public half and attributes be had without the TPM.
    var storedForm: Data { publicKey.x963Representation + blob }

    /// The key of a stored form; nil when the bytes are not one.
    init?(storedForm bytes: Data) {
        guard bytes.count > Self.pointLength,
              let publicKey = try? P256.Signing.PublicKey(x963Representation: bytes.prefix(Self.pointLength)) else {
            return nil
        }
        self.init(publicKey: publicKey, blob: Data(bytes.dropFirst(Self.pointLength)))
    }

    init(publicKey: P256.Signing.PublicKey, blob: Data) {
        self.publicKey = publicKey
        self.blob = blob
    }

    /// The key's ECDSA signature of `digest`, made by the TPM, in `format`.
    ///
    /// The TPM signs a 32-byte digest. ECDSA reads a digest as a number no wider than the
    /// curve's order (SEC 1, 4.1.3 step 5), so a longer one is cut to its first 32 bytes and a
    /// shorter one is padded with leading zeros: the same number, so the same signature
    /// check. The signature is checked with the public key before it is handed back, so a
    /// TPM that signed with another key (or badly) never yields a wrong signature.
    func sign(digest: Data, format: KeyAlgorithmScheme.SignatureFormat) throws(KeyFailure) -> Data {
        var input = Data(digest.prefix(32))
        input = Data(repeating: 0, count: 32 - input.count) + input
        let raw = try TrustedPlatformModule.configured().sign(digest: input, with: blob)
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw),
              publicKey.isValidSignature(signature, for: SuppliedDigest(digest)) else {
            throw KeyFailure(.decode, "the TPM's signature does not verify with the key's public key: the TPM is not the one that holds this key")
        }
        return format == .x962 ? signature.derRepresentation : signature.rawRepresentation
    }
}
