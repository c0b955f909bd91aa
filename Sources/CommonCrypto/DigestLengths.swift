// The sizes of CommonDigest's hashes. Apple's header defines them as macros, which Swift
// imports as `Int32`: code writes `Int(CC_SHA256_DIGEST_LENGTH)` or `CC_LONG(CC_SHA1_DIGEST_LENGTH)`.
// The `_BLOCK_LONG` macros, computed with sizeof, are not imported into Swift, so not here either.

/// The length type of CommonDigest's calls.
public typealias CC_LONG = UInt32
/// The 64-bit length type of CommonDigest.
public typealias CC_LONG64 = UInt64

/// The size of an MD5 digest, in bytes.
public var CC_MD5_DIGEST_LENGTH: Int32 { 16 }
/// The size of MD5's block, in bytes.
public var CC_MD5_BLOCK_BYTES: Int32 { 64 }
/// The size of a SHA-1 digest, in bytes.
public var CC_SHA1_DIGEST_LENGTH: Int32 { 20 }
/// The size of SHA-1's block, in bytes.
public var CC_SHA1_BLOCK_BYTES: Int32 { 64 }
/// The size of a SHA-224 digest, in bytes.
public var CC_SHA224_DIGEST_LENGTH: Int32 { 28 }
/// The size of SHA-224's block, in bytes.
public var CC_SHA224_BLOCK_BYTES: Int32 { 64 }
/// The size of a SHA-256 digest, in bytes.
public var CC_SHA256_DIGEST_LENGTH: Int32 { 32 }
/// The size of SHA-256's block, in bytes.
public var CC_SHA256_BLOCK_BYTES: Int32 { 64 }
/// The size of a SHA-384 digest, in bytes.
public var CC_SHA384_DIGEST_LENGTH: Int32 { 48 }
/// The size of SHA-384's block, in bytes.
public var CC_SHA384_BLOCK_BYTES: Int32 { 128 }
/// The size of a SHA-512 digest, in bytes.
public var CC_SHA512_DIGEST_LENGTH: Int32 { 64 }
/// The size of SHA-512's block, in bytes.
public var CC_SHA512_BLOCK_BYTES: Int32 { 128 }
