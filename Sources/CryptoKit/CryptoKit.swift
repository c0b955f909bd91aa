// `import CryptoKit` on Linux: swift-crypto's `Crypto` module is CryptoKit's API (the same
// types and calls: SHA256, HMAC, AES.GCM, ChaChaPoly, P256 to P521, Curve25519, HKDF, HPKE,
// Insecure.SHA1 and Insecure.MD5), so this module only re-exports it, and code written for
// Apple's CryptoKit compiles unchanged. What Apple's CryptoKit has and swift-crypto does not
// (the Secure Enclave's keys above all) is absent here too; see the module's documentation.
@_exported import Crypto
