import CommonCrypto
import Crypto

/// A hash in progress, of one of CommonDigest's algorithms, over swift-crypto's hash functions.
/// A value: copying a context copies the hash, as copying Apple's C context does.
enum DigestState: Sendable {
    case md5(Insecure.MD5)
    case sha1(Insecure.SHA1)
    case sha224(SHA224)
    case sha256(SHA256)
    case sha384(SHA384)
    case sha512(SHA512)

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .md5(var hash): hash.update(bufferPointer: bytes); self = .md5(hash)
        case .sha1(var hash): hash.update(bufferPointer: bytes); self = .sha1(hash)
        case .sha224(var hash): hash.update(bufferPointer: bytes); self = .sha224(hash)
        case .sha256(var hash): hash.update(bufferPointer: bytes); self = .sha256(hash)
        case .sha384(var hash): hash.update(bufferPointer: bytes); self = .sha384(hash)
        case .sha512(var hash): hash.update(bufferPointer: bytes); self = .sha512(hash)
        }
    }

    /// Writes the digest to `output`, which holds at least `byteCount` bytes.
    func finalize(into output: UnsafeMutableRawPointer) {
        switch self {
        case .md5(let hash): Self.copy(hash.finalize(), to: output)
        case .sha1(let hash): Self.copy(hash.finalize(), to: output)
        case .sha224(let hash): Self.copy(hash.finalize(), to: output)
        case .sha256(let hash): Self.copy(hash.finalize(), to: output)
        case .sha384(let hash): Self.copy(hash.finalize(), to: output)
        case .sha512(let hash): Self.copy(hash.finalize(), to: output)
        }
    }

    private static func copy<D: Digest>(_ digest: D, to output: UnsafeMutableRawPointer) {
        digest.withUnsafeBytes { output.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    /// The bytes of a C buffer, or nil where C would read through a null pointer.
    static func bytes(_ data: UnsafeRawPointer?, _ length: Int) -> UnsafeRawBufferPointer? {
        if length == 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard let data, length > 0 else { return nil }
        return UnsafeRawBufferPointer(start: data, count: length)
    }

    /// One-shot digest: hashes `length` bytes at `data` into `md`, and returns `md`, or nil
    /// (writing nothing) for a null `md`, or null `data` with a nonzero length.
    static func oneShot(
        _ state: DigestState, _ data: UnsafeRawPointer?, _ length: CC_LONG, _ md: UnsafeMutablePointer<UInt8>?
    ) -> UnsafeMutablePointer<UInt8>? {
        guard let md, let input = bytes(data, Int(length)) else { return nil }
        var state = state
        state.update(input)
        state.finalize(into: UnsafeMutableRawPointer(md))
        return md
    }
}
