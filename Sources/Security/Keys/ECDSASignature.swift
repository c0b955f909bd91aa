internal import Crypto
import Foundation

/// ECDSA over swift-crypto's keys, of a digest given as bytes (``SuppliedDigest``), in
/// either of Apple's encodings.
enum ECDSASignature {
    /// A signature of `digest` in `format`.
    static func sign(_ digest: Data, with key: EllipticCurvePrivateKey,
                     format: KeyAlgorithmScheme.SignatureFormat) throws(KeyFailure) -> Data {
        let supplied = SuppliedDigest(digest)
        do {
            switch key {
            case .p256(let key):
                let signature = try key.signature(for: supplied)
                return format == .x962 ? signature.derRepresentation : signature.rawRepresentation
            case .p384(let key):
                let signature = try key.signature(for: supplied)
                return format == .x962 ? signature.derRepresentation : signature.rawRepresentation
            case .p521(let key):
                let signature = try key.signature(for: supplied)
                return format == .x962 ? signature.derRepresentation : signature.rawRepresentation
            }
        } catch {
            throw KeyFailure(.internalComponent, "ECDSA signing failed")
        }
    }

    /// Whether `signature`, in `format`, is the key's signature of `digest`. A signature
    /// that is not well formed is not valid.
    static func isValid(_ signature: Data, of digest: Data, for key: EllipticCurvePublicKey,
                        format: KeyAlgorithmScheme.SignatureFormat) -> Bool {
        let supplied = SuppliedDigest(digest)
        switch key {
        case .p256(let key):
            guard let parsed = try? (format == .x962 ? P256.Signing.ECDSASignature(derRepresentation: signature)
                                                     : P256.Signing.ECDSASignature(rawRepresentation: signature)) else { return false }
            return key.isValidSignature(parsed, for: supplied)
        case .p384(let key):
            guard let parsed = try? (format == .x962 ? P384.Signing.ECDSASignature(derRepresentation: signature)
                                                     : P384.Signing.ECDSASignature(rawRepresentation: signature)) else { return false }
            return key.isValidSignature(parsed, for: supplied)
        case .p521(let key):
            guard let parsed = try? (format == .x962 ? P521.Signing.ECDSASignature(derRepresentation: signature)
                                                     : P521.Signing.ECDSASignature(rawRepresentation: signature)) else { return false }
            return key.isValidSignature(parsed, for: supplied)
        }
    }
}
