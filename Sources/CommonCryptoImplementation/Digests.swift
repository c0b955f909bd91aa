import CommonCrypto
import Crypto

// CommonDigest's one-shot hashes: `len` bytes at `data` hashed into `md`, which is returned.
// A null `md`, or a null `data` with a nonzero length, returns nil and writes nothing.

/// Hashes `len` bytes at `data` with MD5 into `md` (``CC_MD5_DIGEST_LENGTH`` bytes).
@_cdecl("CC_MD5")
func exportedCC_MD5(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    DigestState.oneShot(.md5(Insecure.MD5()), data, len, md)
}

/// Hashes `len` bytes at `data` with SHA-1 into `md` (``CC_SHA1_DIGEST_LENGTH`` bytes).
@_cdecl("CC_SHA1")
func exportedCC_SHA1(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    DigestState.oneShot(.sha1(Insecure.SHA1()), data, len, md)
}

/// Hashes `len` bytes at `data` with SHA-224 into `md` (``CC_SHA224_DIGEST_LENGTH`` bytes).
@_cdecl("CC_SHA224")
func exportedCC_SHA224(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    DigestState.oneShot(.sha224(SHA224()), data, len, md)
}

/// Hashes `len` bytes at `data` with SHA-256 into `md` (``CC_SHA256_DIGEST_LENGTH`` bytes).
@_cdecl("CC_SHA256")
func exportedCC_SHA256(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    DigestState.oneShot(.sha256(SHA256()), data, len, md)
}

/// Hashes `len` bytes at `data` with SHA-384 into `md` (``CC_SHA384_DIGEST_LENGTH`` bytes).
@_cdecl("CC_SHA384")
func exportedCC_SHA384(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    DigestState.oneShot(.sha384(SHA384()), data, len, md)
}

/// Hashes `len` bytes at `data` with SHA-512 into `md` (``CC_SHA512_DIGEST_LENGTH`` bytes).
@_cdecl("CC_SHA512")
func exportedCC_SHA512(_ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!) -> UnsafeMutablePointer<UInt8>! {
    DigestState.oneShot(.sha512(SHA512()), data, len, md)
}
