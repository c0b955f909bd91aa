import CommonCrypto
import Testing

/// CCCrypt and the CCCryptor calls with DES and Triple DES (kCCAlgorithmDES, kCCAlgorithm3DES)
/// in CBC and ECB, with and without PKCS #7 padding: FIPS 46's worked example, `openssl enc`
/// for random keys, IVs and lengths, and Apple's statuses for bad input.
@Suite struct DESCryptorTests {
    @Test func constantsAreApples() {
        #expect([kCCAlgorithmDES, kCCAlgorithm3DES, kCCKeySizeDES, kCCKeySize3DES, kCCBlockSizeDES, kCCBlockSize3DES]
            == [1, 2, 8, 24, 8, 8])
    }

    /// FIPS 46's worked example: key 133457799BBCDFF1 takes 0123456789ABCDEF to 85E813540F0AB405;
    /// Triple DES with that key three times is the same cipher.
    @Test func fips46Example() {
        let key = hex("133457799BBCDFF1"), plaintext = hex("0123456789ABCDEF"), ciphertext = hex("85E813540F0AB405")
        for (algorithm, fullKey) in [(kCCAlgorithmDES, key), (kCCAlgorithm3DES, key + key + key)] {
            let encrypted = cryptOnce(kCCEncrypt, algorithm, kCCOptionECBMode, key: fullKey, iv: nil, plaintext)
            #expect(encrypted.status == kCCSuccess && encrypted.output == ciphertext)
            let decrypted = cryptOnce(kCCDecrypt, algorithm, kCCOptionECBMode, key: fullKey, iv: nil, ciphertext)
            #expect(decrypted.status == kCCSuccess && decrypted.output == plaintext)
        }
    }

    /// Random keys, IVs and messages of every length around the blocks, against `openssl enc`
    /// (single DES through its legacy provider), both ways.
    @Test(arguments: [kCCAlgorithmDES, kCCAlgorithm3DES])
    func matchesOpenSSL(algorithm: Int) throws {
        let keySize = algorithm == kCCAlgorithmDES ? kCCKeySizeDES : kCCKeySize3DES
        for ecb in [false, true] {
            for padding in [true, false] {
                for length in padding ? [0, 1, 7, 8, 9, 15, 16, 100] : [0, 8, 40] {
                    let key = randomBytes(keySize), iv = randomBytes(8), message = randomBytes(length)
                    let cipher = (algorithm == kCCAlgorithmDES ? "-des" : "-des-ede3") + (ecb ? (algorithm == kCCAlgorithmDES ? "-ecb" : "") : "-cbc")
                    var arguments = ["enc", cipher, "-K", hex(key)]
                    if algorithm == kCCAlgorithmDES { arguments += ["-provider", "legacy", "-provider", "default"] }
                    if !ecb { arguments += ["-iv", hex(iv)] }
                    if !padding { arguments.append("-nopad") }
                    let options = (ecb ? kCCOptionECBMode : 0) | (padding ? kCCOptionPKCS7Padding : 0)
                    try expectSameAsOpenSSL(algorithm, options, key: key, iv: ecb ? nil : iv, message, openSSL: arguments)
                }
            }
        }
    }

    /// A Triple DES cryptor fed in pieces of every size gives what one call gives, CBC chaining
    /// across the pieces.
    @Test(arguments: [kCCEncrypt, kCCDecrypt])
    func cryptorInPiecesMatchesOneCall(op: Int) {
        let key = randomBytes(kCCKeySize3DES), iv = randomBytes(8)
        for options in [kCCOptionPKCS7Padding, 0, kCCOptionECBMode | kCCOptionPKCS7Padding] {
            let message = randomBytes(options & kCCOptionPKCS7Padding != 0 ? 101 : 104)
            let input = op == kCCEncrypt ? message : cryptOnce(kCCEncrypt, kCCAlgorithm3DES, options, key: key, iv: iv, message).output
            let whole = cryptOnce(op, kCCAlgorithm3DES, options, key: key, iv: iv, input)
            #expect(whole.status == kCCSuccess)
            for piece in [1, 3, 8, 9, 64] {
                let output = cryptInPieces(op, kCCAlgorithm3DES, options, key: key, iv: iv, input, piece: piece)
                #expect(output == whole.output, "options \(options) pieces of \(piece)")
            }
        }
    }

    /// Apple's statuses: a key of another size is kCCKeySizeError (Triple DES takes three keys,
    /// 24 bytes), whole blocks are needed without padding, CTR is not offered over DES.
    @Test func badInput() {
        let iv = randomBytes(8)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithmDES, 0, key: randomBytes(7), iv: iv, randomBytes(8)).status == kCCKeySizeError)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithmDES, 0, key: randomBytes(16), iv: iv, randomBytes(8)).status == kCCKeySizeError)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithm3DES, 0, key: randomBytes(16), iv: iv, randomBytes(8)).status == kCCKeySizeError)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithm3DES, 0, key: randomBytes(8), iv: iv, randomBytes(8)).status == kCCKeySizeError)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithm3DES, 0, key: randomBytes(24), iv: iv, randomBytes(9)).status == kCCAlignmentError)
        #expect(cryptOnce(kCCDecrypt, kCCAlgorithm3DES, kCCOptionPKCS7Padding, key: randomBytes(24), iv: iv, randomBytes(12)).status
            == kCCAlignmentError)
        var cryptor: CCCryptorRef?
        let key = randomBytes(24)
        #expect(CCCryptorCreateWithMode(CCOperation(kCCEncrypt), CCMode(kCCModeCTR), CCAlgorithm(kCCAlgorithm3DES), 0, iv,
                                        key, key.count, nil, 0, 0, 0, &cryptor) == kCCUnimplemented)
        #expect(cryptor == nil)
        // A wrong key gives wrong padding at the end far more often than not: kCCDecodeError,
        // never a crash, over 20 tries.
        let ciphertext = cryptOnce(kCCEncrypt, kCCAlgorithm3DES, kCCOptionPKCS7Padding, key: key, iv: iv, randomBytes(20)).output
        var decodeErrors = 0
        for _ in 0..<20 {
            let status = cryptOnce(kCCDecrypt, kCCAlgorithm3DES, kCCOptionPKCS7Padding, key: randomBytes(24), iv: iv, ciphertext).status
            #expect(status == kCCSuccess || status == kCCDecodeError)
            if status == kCCDecodeError { decodeErrors += 1 }
        }
        #expect(decodeErrors >= 10)
    }
}
