// Legacy ciphers of PKCS#12.
//
// Triple DES (DES-EDE3 and DES-EDE2) and RC2, for reading PKCS#12 files written by older
// tools, by `openssl pkcs12 -export -legacy` and by Apple's export (certificates under
// pbeWithSHAAnd40BitRC2-CBC, keys under pbeWithSHAAnd3-KeyTripleDES-CBC).
//
// Triple DES is BoringSSL's (the LegacyCiphers module, which CommonCrypto's DES shares). RC2
// is written here (RC2.swift) because no well-kept library on Linux that this package may
// depend on has it: the BoringSSL that swift-crypto builds leaves it out, and CryptoExtras
// offers AES only. The CBC mode below is shared by both. They only ever decrypt here: files
// this package writes use PBES2 with AES-256-CBC. They are checked against the standards'
// known-answer vectors and against `openssl enc` (Tests/SecurityTests/PKCS12Tests.swift). RC2
// is not constant-time, which is acceptable for a one-off decryption under a key derived from
// the file's passphrase.

/// CBC-mode decryption over a legacy 8-byte block cipher (``TripleDES`` or ``RC2``), padding
/// left in place: ``CBCPadding`` removes it, for these ciphers and AES alike.
enum LegacyCBC {
    /// `ciphertext` must be a whole number of blocks and `iv` one block; nil otherwise.
    static func decrypt(_ ciphertext: [UInt8], iv: [UInt8], block decryptBlock: (UInt64) -> UInt64) -> [UInt8]? {
        let size = 8
        guard iv.count == size, ciphertext.count % size == 0 else { return nil }
        var previous = block(iv, at: 0)
        var plaintext: [UInt8] = []
        plaintext.reserveCapacity(ciphertext.count)
        for offset in stride(from: 0, to: ciphertext.count, by: size) {
            let block = block(ciphertext, at: offset)
            let clear = decryptBlock(block) ^ previous
            for byte in 0..<size { plaintext.append(UInt8(truncatingIfNeeded: clear >> UInt64(56 - 8 * byte))) }
            previous = block
        }
        return plaintext
    }

    /// Eight bytes of `bytes` from `offset`, big-endian; the caller guarantees they exist.
    static func block(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }
}
