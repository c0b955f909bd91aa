import CommonCrypto
import Crypto

// CommonDigest's incremental hashing: a context, then Init, Update as often as needed, Final.
// Each call returns 1, as Apple's do; a null pointer, a context that was never initialized, or
// a context of another algorithm returns 0 and writes nothing, where C would crash or
// overflow a buffer. A context may be zeroed or allocated uninitialized, as C code does; it
// names its hash in a table (see ContextHandle), so a copy of a context in progress continues
// the same hash rather than a separate one.

/// The hashes in progress.
let digestStates = ContextTable<DigestState>()


extension DigestState {
    /// Whether two states are of the same algorithm.
    func isSameAlgorithm(as other: DigestState) -> Bool {
        switch (self, other) {
        case (.md5, .md5), (.sha1, .sha1), (.sha224, .sha224), (.sha256, .sha256), (.sha384, .sha384),
             (.sha512, .sha512):
            return true
        default:
            return false
        }
    }
}

func digestInit(_ context: UnsafeMutableRawPointer?, _ fresh: DigestState) -> Int32 {
    guard let context else { return 0 }
    var handle = ContextHandle.load(from: context)
    digestStates.start(&handle, fresh)
    handle.store(to: context)
    return 1
}

func digestUpdate(_ context: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer?, _ length: CC_LONG) -> Int32 {
    guard let context, let input = DigestState.bytes(data, Int(length)) else { return 0 }
    return digestStates.update(ContextHandle.load(from: context)) { $0.update(input) } ? 1 : 0
}

/// Writes the digest if the context holds a hash of `algorithm`'s kind, then empties it.
func digestFinal(_ md: UnsafeMutablePointer<UInt8>?, _ context: UnsafeMutableRawPointer?, _ algorithm: DigestState) -> Int32 {
    guard let md, let context else { return 0 }
    var handle = ContextHandle.load(from: context)
    guard let state = digestStates.peek(handle), state.isSameAlgorithm(as: algorithm),
          let state = digestStates.finish(&handle)
    else { return 0 }
    handle.store(to: context)
    state.finalize(into: UnsafeMutableRawPointer(md))
    return 1
}

@_cdecl("CC_MD5_Init")
func exportedCC_MD5_Init(_ c: UnsafeMutableRawPointer?) -> Int32 { digestInit(c, .md5(Insecure.MD5())) }
/// Adds `len` bytes at `data` to an MD5 computation.
@_cdecl("CC_MD5_Update")
func exportedCC_MD5_Update(_ c: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    digestUpdate(c, data, len)
}
/// Writes the MD5 digest (``CC_MD5_DIGEST_LENGTH`` bytes) to `md`.
@_cdecl("CC_MD5_Final")
func exportedCC_MD5_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutableRawPointer?) -> Int32 {
    digestFinal(md, c, .md5(Insecure.MD5()))
}

/// Starts a SHA-1 computation.
@_cdecl("CC_SHA1_Init")
func exportedCC_SHA1_Init(_ c: UnsafeMutableRawPointer?) -> Int32 { digestInit(c, .sha1(Insecure.SHA1())) }
/// Adds `len` bytes at `data` to a SHA-1 computation.
@_cdecl("CC_SHA1_Update")
func exportedCC_SHA1_Update(_ c: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    digestUpdate(c, data, len)
}
/// Writes the SHA-1 digest (``CC_SHA1_DIGEST_LENGTH`` bytes) to `md`.
@_cdecl("CC_SHA1_Final")
func exportedCC_SHA1_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutableRawPointer?) -> Int32 {
    digestFinal(md, c, .sha1(Insecure.SHA1()))
}

/// Starts a SHA-224 computation.
@_cdecl("CC_SHA224_Init")
func exportedCC_SHA224_Init(_ c: UnsafeMutableRawPointer?) -> Int32 { digestInit(c, .sha224(SHA224())) }
/// Adds `len` bytes at `data` to a SHA-224 computation.
@_cdecl("CC_SHA224_Update")
func exportedCC_SHA224_Update(_ c: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    digestUpdate(c, data, len)
}
/// Writes the SHA-224 digest (``CC_SHA224_DIGEST_LENGTH`` bytes) to `md`.
@_cdecl("CC_SHA224_Final")
func exportedCC_SHA224_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutableRawPointer?) -> Int32 {
    digestFinal(md, c, .sha224(SHA224()))
}

/// Starts a SHA-256 computation.
@_cdecl("CC_SHA256_Init")
func exportedCC_SHA256_Init(_ c: UnsafeMutableRawPointer?) -> Int32 { digestInit(c, .sha256(SHA256())) }
/// Adds `len` bytes at `data` to a SHA-256 computation.
@_cdecl("CC_SHA256_Update")
func exportedCC_SHA256_Update(_ c: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    digestUpdate(c, data, len)
}
/// Writes the SHA-256 digest (``CC_SHA256_DIGEST_LENGTH`` bytes) to `md`.
@_cdecl("CC_SHA256_Final")
func exportedCC_SHA256_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutableRawPointer?) -> Int32 {
    digestFinal(md, c, .sha256(SHA256()))
}

/// Starts a SHA-384 computation.
@_cdecl("CC_SHA384_Init")
func exportedCC_SHA384_Init(_ c: UnsafeMutableRawPointer?) -> Int32 { digestInit(c, .sha384(SHA384())) }
/// Adds `len` bytes at `data` to a SHA-384 computation.
@_cdecl("CC_SHA384_Update")
func exportedCC_SHA384_Update(_ c: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    digestUpdate(c, data, len)
}
/// Writes the SHA-384 digest (``CC_SHA384_DIGEST_LENGTH`` bytes) to `md`.
@_cdecl("CC_SHA384_Final")
func exportedCC_SHA384_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutableRawPointer?) -> Int32 {
    digestFinal(md, c, .sha384(SHA384()))
}

/// Starts a SHA-512 computation.
@_cdecl("CC_SHA512_Init")
func exportedCC_SHA512_Init(_ c: UnsafeMutableRawPointer?) -> Int32 { digestInit(c, .sha512(SHA512())) }
/// Adds `len` bytes at `data` to a SHA-512 computation.
@_cdecl("CC_SHA512_Update")
func exportedCC_SHA512_Update(_ c: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    digestUpdate(c, data, len)
}
/// Writes the SHA-512 digest (``CC_SHA512_DIGEST_LENGTH`` bytes) to `md`.
@_cdecl("CC_SHA512_Final")
func exportedCC_SHA512_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutableRawPointer?) -> Int32 {
    digestFinal(md, c, .sha512(SHA512()))
}
