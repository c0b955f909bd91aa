internal import Crypto
import Foundation

/// The hash of an ANSI X9.63 key derivation, as an ECIES or ECDH algorithm names it
/// (`...:KDFX963:SHA256`). One derivation serves both: ECIES derives its AES key (and IV) with
/// it, the `ecdhKeyExchange...X963...` algorithms hand its output to the caller.
enum KeyDerivationDigest: Sendable, CaseIterable {
    case sha1, sha224, sha256, sha384, sha512

    /// The most bytes one derivation gives: the output is held in memory, and no key or IV
    /// comes near it. (X9.63 itself allows far more.)
    static let maximumByteCount = 1 << 20

    /// `byteCount` bytes derived from an ECDH shared secret `Z`: the concatenation of
    /// Hash(Z ‖ counter ‖ sharedInfo) for the 32-bit big-endian counter 1, 2, …, cut to length
    /// (ANSI X9.63, SEC 1, section 3.6.1).
    func derive(from secret: SharedSecret, sharedInfo: Data, byteCount: Int) throws(KeyFailure) -> SymmetricKey {
        guard (1...Self.maximumByteCount).contains(byteCount) else {
            throw KeyFailure(.param, "the requested size (\(byteCount) bytes) is not between 1 and \(Self.maximumByteCount)")
        }
        switch self {
        case .sha1: return secret.x963DerivedSymmetricKey(using: Insecure.SHA1.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        case .sha224: return secret.x963DerivedSymmetricKey(using: SHA224.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        case .sha256: return secret.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        case .sha384: return secret.x963DerivedSymmetricKey(using: SHA384.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        case .sha512: return secret.x963DerivedSymmetricKey(using: SHA512.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        }
    }
}
