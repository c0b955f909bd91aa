internal import Crypto
import Foundation

/// The hash functions SecKey's algorithms name: SHA-1 and the SHA-2 family (swift-crypto's,
/// and ``SHA224`` for the one it lacks).
enum DigestAlgorithm: Sendable, CaseIterable {
    case sha1, sha224, sha256, sha384, sha512

    /// The name in Apple's algorithm identifiers (`SHA256`).
    var name: String {
        switch self {
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }

    /// Bytes of a digest.
    var byteCount: Int {
        switch self {
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of `data`.
    func hash<Bytes: DataProtocol>(_ data: Bytes) -> Data {
        switch self {
        case .sha1: Data(Insecure.SHA1.hash(data: data))
        case .sha224: Data(SHA224.hash(data: data))
        case .sha256: Data(SHA256.hash(data: data))
        case .sha384: Data(SHA384.hash(data: data))
        case .sha512: Data(SHA512.hash(data: data))
        }
    }

    /// The DER `DigestInfo` header that precedes the digest in a PKCS #1 v1.5 signature
    /// (RFC 8017, section 9.2, note 1).
    var digestInfoPrefix: [UInt8] {
        switch self {
        case .sha1: [0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A, 0x05, 0x00, 0x04, 0x14]
        case .sha224: [0x30, 0x2D, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04, 0x1C]
        case .sha256: [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        case .sha384: [0x30, 0x41, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30]
        case .sha512: [0x30, 0x51, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]
        }
    }

    /// MGF1 (RFC 8017, appendix B.2.1): `length` bytes of mask from `seed`.
    func mask<Seed: DataProtocol>(seed: Seed, length: Int) -> Data {
        var mask = Data(capacity: length + byteCount)
        var counter: UInt32 = 0
        while mask.count < length {
            var block = Data(seed)
            withUnsafeBytes(of: counter.bigEndian) { block.append(contentsOf: $0) }
            mask.append(hash(block))
            counter += 1
        }
        return mask.prefix(length)
    }
}
