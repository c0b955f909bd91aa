// CommonCryptor's types and constants, with Apple's names and values. Apple's header declares
// the constants in anonymous enums, which Swift imports as `Int`: code writes
// `CCOperation(kCCEncrypt)`, `CCAlgorithm(kCCAlgorithmAES)`, `CCOptions(kCCOptionPKCS7Padding)`.

/// Encryption or decryption.
public typealias CCOperation = UInt32
/// A symmetric algorithm.
public typealias CCAlgorithm = UInt32
/// Options of a cryptor: padding and ECB mode.
public typealias CCOptions = UInt32
/// A cryptor made by ``CCCryptorCreate(_:_:_:_:_:_:_:)``, released by ``CCCryptorRelease(_:)``.
public typealias CCCryptorRef = OpaquePointer

/// Encrypt.
public var kCCEncrypt: Int { 0 }
/// Decrypt.
public var kCCDecrypt: Int { 1 }

/// AES, with a 128-, 192- or 256-bit key (the name predates the longer keys).
public var kCCAlgorithmAES128: Int { 0 }
/// AES, with a 128-, 192- or 256-bit key.
public var kCCAlgorithmAES: Int { 0 }
/// DES: not available here (``kCCUnimplemented``).
public var kCCAlgorithmDES: Int { 1 }
/// Triple DES: not available here (``kCCUnimplemented``).
public var kCCAlgorithm3DES: Int { 2 }
/// CAST: not available here (``kCCUnimplemented``).
public var kCCAlgorithmCAST: Int { 3 }
/// RC4: not available here (``kCCUnimplemented``).
public var kCCAlgorithmRC4: Int { 4 }
/// RC2: not available here (``kCCUnimplemented``).
public var kCCAlgorithmRC2: Int { 5 }
/// Blowfish: not available here (``kCCUnimplemented``).
public var kCCAlgorithmBlowfish: Int { 6 }

/// PKCS #7 padding: encryption pads to a whole block, decryption checks and removes the padding.
public var kCCOptionPKCS7Padding: Int { 1 }
/// Electronic codebook mode; without it, a cryptor uses CBC.
public var kCCOptionECBMode: Int { 2 }

/// An AES-128 key, in bytes.
public var kCCKeySizeAES128: Int { 16 }
/// An AES-192 key, in bytes.
public var kCCKeySizeAES192: Int { 24 }
/// An AES-256 key, in bytes.
public var kCCKeySizeAES256: Int { 32 }
/// A DES key, in bytes.
public var kCCKeySizeDES: Int { 8 }
/// A triple-DES key, in bytes.
public var kCCKeySize3DES: Int { 24 }
/// The shortest CAST key, in bytes.
public var kCCKeySizeMinCAST: Int { 5 }
/// The longest CAST key, in bytes.
public var kCCKeySizeMaxCAST: Int { 16 }
/// The shortest RC4 key, in bytes.
public var kCCKeySizeMinRC4: Int { 1 }
/// The longest RC4 key, in bytes.
public var kCCKeySizeMaxRC4: Int { 512 }
/// The shortest RC2 key, in bytes.
public var kCCKeySizeMinRC2: Int { 1 }
/// The longest RC2 key, in bytes.
public var kCCKeySizeMaxRC2: Int { 128 }
/// The shortest Blowfish key, in bytes.
public var kCCKeySizeMinBlowfish: Int { 8 }
/// The longest Blowfish key, in bytes.
public var kCCKeySizeMaxBlowfish: Int { 56 }

/// AES's block, in bytes, whatever the key size.
public var kCCBlockSizeAES128: Int { 16 }
/// DES's block, in bytes.
public var kCCBlockSizeDES: Int { 8 }
/// Triple DES's block, in bytes.
public var kCCBlockSize3DES: Int { 8 }
/// CAST's block, in bytes.
public var kCCBlockSizeCAST: Int { 8 }
/// RC2's block, in bytes.
public var kCCBlockSizeRC2: Int { 8 }
/// Blowfish's block, in bytes.
public var kCCBlockSizeBlowfish: Int { 8 }

/// A mode of ``CCCryptorCreateWithMode(_:_:_:_:_:_:_:_:_:_:_:_:)``.
public typealias CCMode = UInt32
/// A padding of ``CCCryptorCreateWithMode(_:_:_:_:_:_:_:_:_:_:_:_:)``.
public typealias CCPadding = UInt32
/// Options of a mode.
public typealias CCModeOptions = UInt32

/// Electronic codebook.
public var kCCModeECB: Int { 1 }
/// Cipher block chaining.
public var kCCModeCBC: Int { 2 }
/// Cipher feedback: not available here (``kCCUnimplemented``).
public var kCCModeCFB: Int { 3 }
/// Counter mode, big-endian.
public var kCCModeCTR: Int { 4 }
/// Output feedback: not available here (``kCCUnimplemented``).
public var kCCModeOFB: Int { 7 }
/// XTS: not available here (``kCCUnimplemented``).
public var kCCModeXTS: Int { 8 }
/// RC4 as a mode: not available here (``kCCUnimplemented``).
public var kCCModeRC4: Int { 9 }
/// 8-bit cipher feedback: not available here (``kCCUnimplemented``).
public var kCCModeCFB8: Int { 10 }

/// No padding.
public var ccNoPadding: Int { 0 }
/// PKCS #7 padding.
public var ccPKCS7Padding: Int { 1 }

/// A little-endian counter: not available (``kCCUnimplemented``), as on Apple platforms.
public var kCCModeOptionCTR_LE: Int { 0x0001 }
/// A big-endian counter, the one CTR uses.
public var kCCModeOptionCTR_BE: Int { 0x0002 }
