import CommonCrypto
import Testing

/// CCCrypt and the CCCryptor calls: AES in CBC and ECB, with and without PKCS #7 padding,
/// against NIST SP 800-38A and openssl, and their statuses for bad input.
@Suite struct CryptorTests {
    static let plaintext = hex("""
        6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
        30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710
        """)
    static let key128 = hex("2b7e151628aed2a6abf7158809cf4f3c")
    static let key256 = hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
    static let iv = hex("000102030405060708090a0b0c0d0e0f")

    /// One CCCrypt call with AES; the output and status.
    static func crypt(
        _ op: Int, _ options: Int, key: [UInt8], iv: [UInt8]?, _ input: [UInt8], room: Int? = nil
    ) -> (status: CCCryptorStatus, output: [UInt8], moved: Int) {
        cryptOnce(op, kCCAlgorithmAES, options, key: key, iv: iv, input, room: room)
    }

    @Test func constantsAreApples() {
        #expect([kCCEncrypt, kCCDecrypt, kCCAlgorithmAES, kCCAlgorithmAES128, kCCOptionPKCS7Padding, kCCOptionECBMode]
            == [0, 1, 0, 0, 1, 2])
        #expect([kCCKeySizeAES128, kCCKeySizeAES192, kCCKeySizeAES256, kCCBlockSizeAES128] == [16, 24, 32, 16])
        #expect([kCCSuccess, kCCParamError, kCCBufferTooSmall, kCCMemoryFailure, kCCAlignmentError, kCCDecodeError,
                 kCCUnimplemented, kCCOverflow, kCCRNGFailure, kCCUnspecifiedError, kCCCallSequenceError,
                 kCCKeySizeError, kCCInvalidKey]
            == [0, -4300, -4301, -4302, -4303, -4304, -4305, -4306, -4307, -4308, -4309, -4310, -4311])
    }

    /// SP 800-38A F.1.1, F.1.5, F.2.1 and F.2.5, both ways.
    @Test func sp800_38aVectors() {
        let ecb128 = hex("""
            3ad77bb40d7a3660a89ecaf32466ef97 f5d3d58503b9699de785895a96fdbaaf
            43b1cd7f598ece23881b00e3ed030688 7b0c785e27e8ad3f8223207104725dd4
            """)
        let ecb256 = hex("""
            f3eed1bdb5d2a03c064b5a7e3db181f8 591ccb10d410ed26dc5ba74a31362870
            b6ed21b99ca6f4f9f153e7b1beafed1d 23304b7a39f9f3ff067d8d8f9e24ecc7
            """)
        let cbc128 = hex("""
            7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2
            73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7
            """)
        let cbc256 = hex("""
            f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d
            39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b
            """)
        let cases: [(options: Int, key: [UInt8], iv: [UInt8]?, ciphertext: [UInt8])] = [
            (kCCOptionECBMode, Self.key128, nil, ecb128), (kCCOptionECBMode, Self.key256, nil, ecb256),
            (0, Self.key128, Self.iv, cbc128), (0, Self.key256, Self.iv, cbc256),
        ]
        for item in cases {
            let encrypted = Self.crypt(kCCEncrypt, item.options, key: item.key, iv: item.iv, Self.plaintext)
            #expect(encrypted.status == kCCSuccess)
            #expect(encrypted.output == item.ciphertext)
            let decrypted = Self.crypt(kCCDecrypt, item.options, key: item.key, iv: item.iv, item.ciphertext)
            #expect(decrypted.status == kCCSuccess)
            #expect(decrypted.output == Self.plaintext)
        }
    }

    /// Random keys, IVs and messages of every length around the blocks, against `openssl enc`,
    /// in CBC and ECB, with and without padding, all key sizes.
    @Test(arguments: [16, 24, 32])
    func matchesOpenSSL(keySize: Int) throws {
        for ecb in [false, true] {
            for padding in [true, false] {
                for length in padding ? [0, 1, 15, 16, 17, 31, 32, 100] : [0, 16, 48] {
                    let key = randomBytes(keySize), iv = randomBytes(16), message = randomBytes(length)
                    let cipher = "-aes-\(keySize * 8)-\(ecb ? "ecb" : "cbc")"
                    var arguments = ["enc", cipher, "-K", hex(key)]
                    if !ecb { arguments += ["-iv", hex(iv)] }
                    if !padding { arguments.append("-nopad") }
                    let options = (ecb ? kCCOptionECBMode : 0) | (padding ? kCCOptionPKCS7Padding : 0)
                    try expectSameAsOpenSSL(kCCAlgorithmAES, options, key: key, iv: ecb ? nil : iv, message, openSSL: arguments)
                }
            }
        }
    }

    /// A cryptor fed in pieces of every size gives what one call gives, and never writes more
    /// than CCCryptorGetOutputLength said.
    @Test(arguments: [kCCEncrypt, kCCDecrypt])
    func cryptorInPiecesMatchesOneCall(op: Int) {
        let key = randomBytes(32), iv = randomBytes(16)
        for options in [kCCOptionPKCS7Padding, 0, kCCOptionECBMode | kCCOptionPKCS7Padding, kCCOptionECBMode] {
            let message = randomBytes(options & kCCOptionPKCS7Padding != 0 ? 203 : 208)
            let input = op == kCCEncrypt ? message : Self.crypt(kCCEncrypt, options, key: key, iv: iv, message).output
            let whole = Self.crypt(op, options, key: key, iv: iv, input)
            #expect(whole.status == kCCSuccess)
            for piece in [1, 7, 16, 17, 64, 300] {
                let output = cryptInPieces(op, kCCAlgorithmAES128, options, key: key, iv: iv, input, piece: piece)
                #expect(output == whole.output, "options \(options) pieces of \(piece)")
            }
        }
    }

    /// CCCrypt may encrypt and decrypt in place, in the caller's own buffer.
    @Test func inPlace() {
        let key = randomBytes(16), iv = randomBytes(16), message = randomBytes(64)
        var buffer = message
        var moved = 0
        let status = CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, key, 16, iv, buffer, 64, &buffer, 64, &moved)
        #expect(status == kCCSuccess && moved == 64)
        #expect(buffer == Self.crypt(kCCEncrypt, 0, key: key, iv: iv, message).output)
    }

    /// A buffer too small gets kCCBufferTooSmall and the size needed, as on Apple platforms
    /// (for decryption with padding, the ciphertext's length), and nothing written.
    @Test func bufferTooSmall() {
        let key = randomBytes(16), message = randomBytes(20)
        let short = Self.crypt(kCCEncrypt, kCCOptionPKCS7Padding, key: key, iv: nil, message, room: 31)
        #expect(short.status == kCCBufferTooSmall)
        #expect(short.moved == 32)
        let ciphertext = Self.crypt(kCCEncrypt, kCCOptionPKCS7Padding, key: key, iv: nil, message).output
        let shortDecrypt = Self.crypt(kCCDecrypt, kCCOptionPKCS7Padding, key: key, iv: nil, ciphertext, room: 20)
        #expect(shortDecrypt.status == kCCBufferTooSmall)
        #expect(shortDecrypt.moved == 32)
        let exact = Self.crypt(kCCDecrypt, kCCOptionPKCS7Padding, key: key, iv: nil, ciphertext, room: 32)
        #expect(exact.status == kCCSuccess && exact.output == message)
    }

    /// CCCryptorFinal with too little room says so and can be called again with more.
    @Test func finalWithTooLittleRoomCanBeRetried() {
        let key = randomBytes(16), iv = randomBytes(16), message = randomBytes(40)
        for op in [kCCEncrypt, kCCDecrypt] {
            let input = op == kCCEncrypt ? message
                : Self.crypt(kCCEncrypt, kCCOptionPKCS7Padding, key: key, iv: iv, message).output
            var cryptor: CCCryptorRef?
            CCCryptorCreate(CCOperation(op), 0, CCOptions(kCCOptionPKCS7Padding), key, 16, iv, &cryptor)
            defer { CCCryptorRelease(cryptor) }
            var output = [UInt8](repeating: 0, count: 64)
            var moved = 0
            #expect(CCCryptorUpdate(cryptor, input, input.count, &output, 64, &moved) == kCCSuccess)
            var result = Array(output[..<moved])
            var small = [UInt8](repeating: 0, count: 4)
            #expect(CCCryptorFinal(cryptor, &small, small.count, &moved) == kCCBufferTooSmall)
            #expect(moved == (op == kCCEncrypt ? 16 : 8))
            #expect(CCCryptorFinal(cryptor, &output, 64, &moved) == kCCSuccess)
            result += output[..<moved]
            #expect(result == Self.crypt(op, kCCOptionPKCS7Padding, key: key, iv: iv, input).output)
        }
    }

    /// Apple's statuses for bad input, never a crash.
    @Test func badInput() {
        let key = randomBytes(16)
        func status(_ op: Int = kCCEncrypt, alg: Int = kCCAlgorithmAES, options: Int = kCCOptionPKCS7Padding,
                    key: [UInt8]? = key, keyLength: Int = 16, input: [UInt8] = randomBytes(16)) -> CCCryptorStatus {
            var output = [UInt8](repeating: 0, count: 64)
            var moved = 0
            return CCCrypt(CCOperation(op), CCAlgorithm(alg), CCOptions(options), key, keyLength, nil, input, input.count,
                           &output, output.count, &moved)
        }
        #expect(status(7) == kCCParamError)
        #expect(status(alg: 9) == kCCParamError)
        for algorithm in [kCCAlgorithmCAST, kCCAlgorithmRC2, kCCAlgorithmBlowfish] {
            #expect(status(alg: algorithm, keyLength: 16) == kCCUnimplemented)
        }
        #expect(status(key: nil) == kCCParamError)
        #expect(status(key: randomBytes(17), keyLength: 17) == kCCKeySizeError)
        #expect(status(key: randomBytes(8), keyLength: 8) == kCCKeySizeError)
        #expect(status(options: 0, input: randomBytes(17)) == kCCAlignmentError)
        #expect(status(kCCDecrypt, options: 0, input: randomBytes(17)) == kCCAlignmentError)
        #expect(status(kCCDecrypt, input: randomBytes(17)) == kCCAlignmentError)
        #expect(status(kCCDecrypt, input: []) == kCCDecodeError)
        #expect(status(options: 0, input: []) == kCCSuccess)

        var cryptor: CCCryptorRef?
        #expect(CCCryptorCreate(CCOperation(kCCEncrypt), 0, 0, key, 15, nil, &cryptor) == kCCKeySizeError)
        #expect(cryptor == nil)
        #expect(CCCryptorCreate(CCOperation(kCCEncrypt), 0, 0, key, 16, nil, nil) == kCCParamError)
        var moved = 5
        #expect(CCCryptorUpdate(nil, key, 16, nil, 0, &moved) == kCCParamError)
        #expect(moved == 0)
        #expect(CCCryptorFinal(nil, nil, 0, &moved) == kCCParamError)
        #expect(CCCryptorRelease(nil) == kCCSuccess)
        #expect(CCCryptorCreate(CCOperation(kCCEncrypt), 0, 0, key, 16, nil, &cryptor) == kCCSuccess)
        #expect(CCCryptorRelease(cryptor) == kCCSuccess)
        // A released cryptor is refused, not used after it was freed.
        #expect(CCCryptorRelease(cryptor) == kCCParamError)
        #expect(CCCryptorUpdate(cryptor, key, 16, nil, 0, &moved) == kCCParamError)
        #expect(CCCryptorGetOutputLength(cryptor, 16, true) == 0)
    }

    /// Wrong padding is kCCDecodeError, and CCCrypt then leaves none of the plaintext in the output.
    @Test func wrongPaddingIsDecodeError() {
        let key = randomBytes(16), iv = randomBytes(16)
        let ciphertext = Self.crypt(kCCEncrypt, kCCOptionPKCS7Padding, key: key, iv: iv, randomBytes(40)).output
        var wrongKey = key
        wrongKey[0] ^= 1
        var decodeErrors = 0
        for attempt in 0..<20 {
            var tampered = ciphertext
            tampered[tampered.count - 17] ^= UInt8(attempt + 1)
            var output = [UInt8](repeating: 0, count: ciphertext.count)
            var moved = 0
            let status = CCCrypt(CCOperation(kCCDecrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                                 key, 16, iv, tampered, tampered.count, &output, output.count, &moved)
            if status == kCCDecodeError {
                decodeErrors += 1
                #expect(output == [UInt8](repeating: 0, count: ciphertext.count))
            } else {
                // A change that happens to leave valid padding decrypts, as everywhere.
                #expect(status == kCCSuccess)
            }
        }
        #expect(decodeErrors > 0)
        // A padding whose length byte is right but whose other bytes are not is refused too.
        var block = [UInt8](repeating: 0x41, count: 14) + [0x03, 0x02]
        var encrypted = [UInt8](repeating: 0, count: 16)
        var moved = 0
        _ = CCCrypt(CCOperation(kCCEncrypt), 0, CCOptions(kCCOptionECBMode), key, 16, nil, &block, 16, &encrypted, 16, &moved)
        var output = [UInt8](repeating: 0, count: 16)
        #expect(CCCrypt(CCOperation(kCCDecrypt), 0, CCOptions(kCCOptionECBMode | kCCOptionPKCS7Padding), key, 16, nil,
                        encrypted, 16, &output, 16, &moved) == kCCDecodeError)
    }

    /// CCCryptorReset starts a new message with a new IV.
    @Test func reset() {
        let key = randomBytes(16), iv1 = randomBytes(16), iv2 = randomBytes(16), message = randomBytes(32)
        var cryptor: CCCryptorRef?
        _ = CCCryptorCreate(CCOperation(kCCEncrypt), 0, 0, key, 16, iv1, &cryptor)
        defer { CCCryptorRelease(cryptor) }
        var output = [UInt8](repeating: 0, count: 32)
        var moved = 0
        _ = CCCryptorUpdate(cryptor, message, 5, &output, 32, &moved)
        #expect(CCCryptorReset(cryptor, iv2) == kCCSuccess)
        _ = CCCryptorUpdate(cryptor, message, 32, &output, 32, &moved)
        #expect(moved == 32)
        #expect(output == Self.crypt(kCCEncrypt, 0, key: key, iv: iv2, message).output)
    }
}
