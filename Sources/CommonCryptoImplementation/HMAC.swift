import CommonCrypto
import Crypto

// CommonHMAC over swift-crypto's HMAC; the declarations are the CommonCrypto C module's. The calls return nothing, as Apple's do: an unknown
// algorithm, a null pointer with a nonzero length, or a context never initialized writes no
// MAC, where C would read or write out of bounds.

/// The HMACs in progress.
let hmacStates = ContextTable<HMACState>()

enum HMACState: Sendable {
    case md5(HMAC<Insecure.MD5>)
    case sha1(HMAC<Insecure.SHA1>)
    case sha224(HMAC<SHA224>)
    case sha256(HMAC<SHA256>)
    case sha384(HMAC<SHA384>)
    case sha512(HMAC<SHA512>)

    init?(algorithm: CCHmacAlgorithm, key: UnsafeRawBufferPointer) {
        // SymmetricKey copies the key into storage swift-crypto zeroes when it is freed.
        let key = SymmetricKey(data: key)
        switch Int(algorithm) {
        case kCCHmacAlgMD5: self = .md5(HMAC(key: key))
        case kCCHmacAlgSHA1: self = .sha1(HMAC(key: key))
        case kCCHmacAlgSHA224: self = .sha224(HMAC(key: key))
        case kCCHmacAlgSHA256: self = .sha256(HMAC(key: key))
        case kCCHmacAlgSHA384: self = .sha384(HMAC(key: key))
        case kCCHmacAlgSHA512: self = .sha512(HMAC(key: key))
        default: return nil
        }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .md5(var mac): mac.update(data: bytes); self = .md5(mac)
        case .sha1(var mac): mac.update(data: bytes); self = .sha1(mac)
        case .sha224(var mac): mac.update(data: bytes); self = .sha224(mac)
        case .sha256(var mac): mac.update(data: bytes); self = .sha256(mac)
        case .sha384(var mac): mac.update(data: bytes); self = .sha384(mac)
        case .sha512(var mac): mac.update(data: bytes); self = .sha512(mac)
        }
    }

    func finalize(into output: UnsafeMutableRawPointer) {
        func copy<M: MessageAuthenticationCode>(_ mac: M) {
            mac.withUnsafeBytes { output.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
        switch self {
        case .md5(let mac): copy(mac.finalize())
        case .sha1(let mac): copy(mac.finalize())
        case .sha224(let mac): copy(mac.finalize())
        case .sha256(let mac): copy(mac.finalize())
        case .sha384(let mac): copy(mac.finalize())
        case .sha512(let mac): copy(mac.finalize())
        }
    }
}

/// Starts an HMAC computation with `algorithm` and the `keyLength` bytes at `key`.
@_cdecl("CCHmacInit")
func exportedCCHmacInit(_ ctx: UnsafeMutableRawPointer?, _ algorithm: CCHmacAlgorithm, _ key: UnsafeRawPointer!,
                       _ keyLength: Int) {
    guard let ctx else { return }
    var handle = ContextHandle.load(from: ctx)
    if let keyBytes = DigestState.bytes(key, keyLength), let state = HMACState(algorithm: algorithm, key: keyBytes) {
        hmacStates.start(&handle, state)
    } else {
        _ = hmacStates.finish(&handle)
    }
    handle.store(to: ctx)
}

/// Adds `dataLength` bytes at `data` to an HMAC computation.
@_cdecl("CCHmacUpdate")
func exportedCCHmacUpdate(_ ctx: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer!, _ dataLength: Int) {
    guard let ctx, let input = DigestState.bytes(data, dataLength) else { return }
    _ = hmacStates.update(ContextHandle.load(from: ctx)) { $0.update(input) }
}

/// Writes the MAC (the algorithm's digest length) to `macOut`, and empties the context.
@_cdecl("CCHmacFinal")
func exportedCCHmacFinal(_ ctx: UnsafeMutableRawPointer?, _ macOut: UnsafeMutableRawPointer!) {
    guard let ctx, let macOut else { return }
    var handle = ContextHandle.load(from: ctx)
    guard let state = hmacStates.finish(&handle) else { return }
    handle.store(to: ctx)
    state.finalize(into: macOut)
}

/// Computes the HMAC of `dataLength` bytes at `data` with `algorithm` and the `keyLength` bytes
/// at `key`, into `macOut` (the algorithm's digest length).
@_cdecl("CCHmac")
func exportedCCHmac(_ algorithm: CCHmacAlgorithm, _ key: UnsafeRawPointer!, _ keyLength: Int, _ data: UnsafeRawPointer!,
                   _ dataLength: Int, _ macOut: UnsafeMutableRawPointer!) {
    guard let macOut, let keyBytes = DigestState.bytes(key, keyLength), let input = DigestState.bytes(data, dataLength),
          var state = HMACState(algorithm: algorithm, key: keyBytes)
    else { return }
    state.update(input)
    state.finalize(into: macOut)
}
