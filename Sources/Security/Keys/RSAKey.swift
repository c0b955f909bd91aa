// RSA keys are BoringSSL's, the one swift-crypto builds and ships, through its C module:
// CryptoExtras' `_RSA` types refuse keys below 1024 bits, which Apple generates (from 512 bits)
// and reads, and have no raw operation, which Apple's raw algorithms and the paddings
// CryptoExtras lacks (``RSAPadding``) need. Implementation-only, as the core's import (see
// Package.swift): code of other packages that loads Security (`#if canImport(Security)`) is
// not given BoringSSL's module map, and an `internal` import would make it load that module.
@_implementationOnly import CCryptoBoringSSL
import Foundation

/// The private half of an RSA key pair. BoringSSL checks the key when it is read (its primes
/// multiply to the modulus, its exponents agree), blinds the private operation and checks its
/// result against the public key, and clears the private numbers when the key is freed.
///
/// `@unchecked Sendable`: the key is never changed after it is made, and BoringSSL guards the
/// caches its operations fill (blinding, Montgomery contexts) with a lock of its own.
final class RSAPrivateKey: @unchecked Sendable {
    /// The sizes Apple generates keys of.
    static let generatedBitCountBounds = 512...8192

    /// Whether keys of `bitCount` bits are generated: within Apple's bounds, and a multiple
    /// of 128 bits, the only sizes BoringSSL generates.
    static func generates(bitCount: Int) -> Bool {
        generatedBitCountBounds.contains(bitCount) && bitCount % 128 == 0
    }

    private let key: OpaquePointer

    private init(owning key: OpaquePointer) {
        self.key = key
    }

    deinit {
        CCryptoBoringSSL_RSA_free(key)
    }

    /// A new key of `bitCount` bits (see ``generates(bitCount:)``) and public exponent 65537;
    /// nil when BoringSSL fails to make one.
    convenience init?(generatingBitCount bitCount: Int) {
        guard Self.generates(bitCount: bitCount),
              let key = CCryptoBoringSSL_RSA_new() else { return nil }
        guard let exponent = CCryptoBoringSSL_BN_new() else {
            CCryptoBoringSSL_RSA_free(key)
            return nil
        }
        defer { CCryptoBoringSSL_BN_free(exponent) }
        guard CCryptoBoringSSL_BN_set_word(exponent, 65537) == 1,
              CCryptoBoringSSL_RSA_generate_key_ex(key, Int32(bitCount), exponent, nil) == 1 else {
            CCryptoBoringSSL_RSA_free(key)
            CCryptoBoringSSL_ERR_clear_error()
            return nil
        }
        self.init(owning: key)
    }

    /// The key of a PKCS #1 `RSAPrivateKey` or a PKCS #8 `PrivateKeyInfo` holding one, in DER
    /// with nothing after it; nil for anything else, or a key whose numbers do not agree.
    convenience init?(derRepresentation der: Data) {
        guard let key = BoringSSLBytes.rsaKey(der, bare: { CCryptoBoringSSL_RSA_parse_private_key($0) },
                                              enveloped: { CCryptoBoringSSL_EVP_parse_private_key($0) }) else { return nil }
        self.init(owning: key)
    }

    /// The modulus's size in bits.
    var keySizeInBits: Int { Int(CCryptoBoringSSL_RSA_bits(key)) }

    /// The PKCS #1 `RSAPrivateKey` DER: Apple's external representation. It holds the secret:
    /// the caller must not keep or log it.
    var derRepresentation: Data {
        BoringSSLBytes.write { CCryptoBoringSSL_RSA_marshal_private_key($0, key) }
    }

    /// The PKCS #8 `PrivateKeyInfo` DER, as PKCS #12 files hold keys. It holds the secret.
    var pkcs8DERRepresentation: Data {
        guard let envelope = CCryptoBoringSSL_EVP_PKEY_new() else { BoringSSLBytes.outOfMemory() }
        defer { CCryptoBoringSSL_EVP_PKEY_free(envelope) }
        guard CCryptoBoringSSL_EVP_PKEY_set1_RSA(envelope, key) == 1 else { BoringSSLBytes.outOfMemory() }
        return BoringSSLBytes.write { CCryptoBoringSSL_EVP_marshal_private_key($0, envelope) }
    }

    /// The public half.
    var publicKey: RSAPublicKey {
        guard let publicHalf = CCryptoBoringSSL_RSAPublicKey_dup(key) else { BoringSSLBytes.outOfMemory() }
        return RSAPublicKey(owning: publicHalf)
    }

    /// `block^d mod n`, as many bytes as the modulus; nil when `block` is not exactly that
    /// long or, as a number, not below the modulus. The result may be secret (a decrypted
    /// block): the caller zeroes it when done.
    func rawOperation(_ block: Data) -> Data? {
        BoringSSLBytes.transform(block, size: Int(CCryptoBoringSSL_RSA_size(key))) { length, output, capacity, input, inputLength in
            CCryptoBoringSSL_RSA_sign_raw(key, length, output, capacity, input, inputLength, RSA_NO_PADDING)
        }
    }
}

/// The public half of an RSA key pair.
///
/// `@unchecked Sendable`: as ``RSAPrivateKey``.
final class RSAPublicKey: @unchecked Sendable {
    private let key: OpaquePointer

    fileprivate init(owning key: OpaquePointer) {
        self.key = key
    }

    deinit {
        CCryptoBoringSSL_RSA_free(key)
    }

    /// The key of a PKCS #1 `RSAPublicKey` or an X.509 `SubjectPublicKeyInfo` holding one, in
    /// DER with nothing after it; nil for anything else.
    convenience init?(derRepresentation der: Data) {
        guard let key = BoringSSLBytes.rsaKey(der, bare: { CCryptoBoringSSL_RSA_parse_public_key($0) },
                                              enveloped: { CCryptoBoringSSL_EVP_parse_public_key($0) }) else { return nil }
        self.init(owning: key)
    }

    /// The modulus's size in bits.
    var keySizeInBits: Int { Int(CCryptoBoringSSL_RSA_bits(key)) }

    /// The PKCS #1 `RSAPublicKey` DER: Apple's external representation of the key.
    var pkcs1DERRepresentation: Data {
        BoringSSLBytes.write { CCryptoBoringSSL_RSA_marshal_public_key($0, key) }
    }

    /// `block^e mod n`, as many bytes as the modulus; nil when `block` is not exactly that
    /// long or, as a number, not below the modulus.
    func rawOperation(_ block: Data) -> Data? {
        BoringSSLBytes.transform(block, size: Int(CCryptoBoringSSL_RSA_size(key))) { length, output, capacity, input, inputLength in
            CCryptoBoringSSL_RSA_verify_raw(key, length, output, capacity, input, inputLength, RSA_NO_PADDING)
        }
    }
}

/// Moving bytes in and out of BoringSSL: DER through its `CBS` and `CBB`, blocks through its
/// raw RSA calls. Buffers BoringSSL hands back are freed by `OPENSSL_free`, which zeroes them.
private enum BoringSSLBytes {
    /// The RSA key of all of `der`: as `bare` reads it (PKCS #1), or inside the envelope
    /// `enveloped` reads (PKCS #8 or SubjectPublicKeyInfo); nil when neither reads an RSA key.
    static func rsaKey(_ der: Data, bare: (UnsafeMutablePointer<CBS>) -> OpaquePointer?,
                       enveloped: (UnsafeMutablePointer<CBS>) -> OpaquePointer?) -> OpaquePointer? {
        parse(der, bare) ?? parse(der) { input in
            guard let envelope = enveloped(input) else { return nil }
            defer { CCryptoBoringSSL_EVP_PKEY_free(envelope) }
            return CCryptoBoringSSL_EVP_PKEY_get1_RSA(envelope)
        }
    }

    /// The RSA key `parse` reads from all of `der`; nil, with the key freed, when it fails or
    /// leaves bytes over.
    private static func parse(_ der: Data, _ parse: (UnsafeMutablePointer<CBS>) -> OpaquePointer?) -> OpaquePointer? {
        der.withUnsafeBytes { bytes -> OpaquePointer? in
            var input = CBS()
            CCryptoBoringSSL_CBS_init(&input, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            guard let value = parse(&input) else {
                CCryptoBoringSSL_ERR_clear_error()
                return nil
            }
            guard CCryptoBoringSSL_CBS_len(&input) == 0 else {
                CCryptoBoringSSL_RSA_free(value)
                return nil
            }
            return value
        }
    }

    /// The bytes `marshal` writes.
    static func write(_ marshal: (UnsafeMutablePointer<CBB>) -> Int32) -> Data {
        var output = CBB()
        guard CCryptoBoringSSL_CBB_init(&output, 0) == 1 else { outOfMemory() }
        defer { CCryptoBoringSSL_CBB_cleanup(&output) }
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        guard marshal(&output) == 1, CCryptoBoringSSL_CBB_finish(&output, &bytes, &count) == 1, let bytes else {
            outOfMemory()
        }
        defer { CCryptoBoringSSL_OPENSSL_free(bytes) }
        return Data(bytes: bytes, count: count)
    }

    /// A raw RSA operation of `block` into a buffer of `size` bytes; nil when BoringSSL refuses
    /// the input (a wrong length, or a number not below the modulus).
    static func transform(
        _ block: Data, size: Int,
        _ operation: (UnsafeMutablePointer<Int>, UnsafeMutablePointer<UInt8>, Int, UnsafePointer<UInt8>, Int) -> Int32
    ) -> Data? {
        var result = Data(count: size)
        var length = 0
        let succeeded = block.withUnsafeBytes { input in
            result.withUnsafeMutableBytes { output in
                guard let inputBase = input.bindMemory(to: UInt8.self).baseAddress,
                      let outputBase = output.bindMemory(to: UInt8.self).baseAddress else { return false }
                return operation(&length, outputBase, size, inputBase, input.count) == 1
            }
        }
        guard succeeded, length == size else {
            CCryptoBoringSSL_ERR_clear_error()
            result.resetBytes(in: 0..<result.count)
            return nil
        }
        return result
    }

    /// BoringSSL fails to encode a key it holds only when it cannot allocate memory, where the
    /// Swift runtime itself stops the process.
    static func outOfMemory() -> Never {
        fatalError("BoringSSL could not allocate memory for an RSA key")
    }
}
