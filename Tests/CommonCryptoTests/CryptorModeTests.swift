import CommonCrypto
import Testing

/// CCCryptorCreateWithMode: ECB and CBC as CCCryptorCreate makes them, CTR against NIST
/// SP 800-38A and openssl, and CFB, CFB8 and OFB against openssl.
@Suite struct CryptorModeTests {
    /// Runs a cryptor made with a mode over `input` in pieces of `piece` bytes.
    static func run(
        _ op: Int, mode: Int, algorithm: Int = kCCAlgorithmAES, padding: Int = ccNoPadding, key: [UInt8], iv: [UInt8],
        _ input: [UInt8], piece: Int, options: Int = kCCModeOptionCTR_BE
    ) -> (status: CCCryptorStatus, output: [UInt8]) {
        var cryptor: CCCryptorRef?
        let created = CCCryptorCreateWithMode(CCOperation(op), CCMode(mode), CCAlgorithm(algorithm), CCPadding(padding),
                                              iv, key, key.count, nil, 0, 0, CCModeOptions(options), &cryptor)
        guard created == kCCSuccess else { return (created, []) }
        defer { CCCryptorRelease(cryptor) }
        var output: [UInt8] = []
        for start in stride(from: 0, to: input.count, by: piece) {
            let chunk = Array(input[start..<min(start + piece, input.count)])
            var buffer = [UInt8](repeating: 0, count: CCCryptorGetOutputLength(cryptor, chunk.count, false))
            var moved = 0
            let status = CCCryptorUpdate(cryptor, chunk, chunk.count, &buffer, buffer.count, &moved)
            guard status == kCCSuccess else { return (status, []) }
            output += buffer[..<moved]
        }
        var buffer = [UInt8](repeating: 0, count: CCCryptorGetOutputLength(cryptor, 0, true))
        var moved = 0
        let status = CCCryptorFinal(cryptor, &buffer, buffer.count, &moved)
        return (status, output + buffer[..<moved])
    }

    @Test func constantsAreApples() {
        #expect([kCCModeECB, kCCModeCBC, kCCModeCFB, kCCModeCTR, kCCModeOFB, kCCModeXTS, kCCModeRC4, kCCModeCFB8]
            == [1, 2, 3, 4, 7, 8, 9, 10])
        #expect([ccNoPadding, ccPKCS7Padding, kCCModeOptionCTR_LE, kCCModeOptionCTR_BE] == [0, 1, 1, 2])
    }

    /// SP 800-38A F.5.1 and F.5.5 (CTR-AES128 and CTR-AES256), fed in pieces of every size.
    @Test func sp800_38aCounterMode() {
        let counter = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
        let cases: [(key: [UInt8], ciphertext: [UInt8])] = [
            (CryptorTests.key128, hex("""
                874d6191b620e3261bef6864990db6ce 9806f66b7970fdff8617187bb9fffdff
                5ae4df3edbd5d35e5b4f09020db03eab 1e031dda2fbe03d1792170a0f3009cee
                """)),
            (CryptorTests.key256, hex("""
                601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5
                2b0930daa23de94ce87017ba2d84988d dfc9c58db67aada613c2dd08457941a6
                """)),
        ]
        for item in cases {
            for piece in [1, 5, 16, 17, 64] {
                let encrypted = Self.run(kCCEncrypt, mode: kCCModeCTR, key: item.key, iv: counter, CryptorTests.plaintext,
                                         piece: piece)
                #expect(encrypted.status == kCCSuccess)
                #expect(encrypted.output == item.ciphertext, "pieces of \(piece)")
                let decrypted = Self.run(kCCDecrypt, mode: kCCModeCTR, key: item.key, iv: counter, item.ciphertext, piece: piece)
                #expect(decrypted.output == CryptorTests.plaintext)
            }
        }
    }

    /// Random keys, counters (some about to carry over many bytes) and lengths, against `openssl enc -aes-N-ctr`.
    @Test(arguments: [16, 24, 32])
    func counterModeMatchesOpenSSL(keySize: Int) throws {
        for (length, counter) in [(1, randomBytes(16)), (33, randomBytes(16)),
                                  (100, [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)),
                                  (50, [UInt8](repeating: 0xFF, count: 16))] {
            let key = randomBytes(keySize), message = randomBytes(length)
            let expected = try OpenSSL.run(["enc", "-aes-\(keySize * 8)-ctr", "-K", hex(key), "-iv", hex(counter)],
                                           input: message)
            #expect(Self.run(kCCEncrypt, mode: kCCModeCTR, key: key, iv: counter, message, piece: 7).output == expected)
        }
    }

    /// CFB, CFB8 and OFB with AES of every key size and with DES and Triple DES: random keys,
    /// IVs and lengths, fed in pieces that stop mid-block, against `openssl enc`, both ways;
    /// padding asked for is ignored, as in Apple's stream modes.
    @Test(arguments: [kCCModeCFB, kCCModeCFB8, kCCModeOFB])
    func feedbackModesMatchOpenSSL(mode: Int) throws {
        let suffix = [kCCModeCFB: "cfb", kCCModeCFB8: "cfb8", kCCModeOFB: "ofb"][mode]!
        let ciphers: [(algorithm: Int, keySize: Int, blockSize: Int, name: String, legacy: Bool)] = [
            (kCCAlgorithmAES, 16, 16, "aes-128", false), (kCCAlgorithmAES, 24, 16, "aes-192", false),
            (kCCAlgorithmAES, 32, 16, "aes-256", false), (kCCAlgorithm3DES, 24, 8, "des-ede3", false),
            (kCCAlgorithmDES, 8, 8, "des", true),
        ]
        for cipher in ciphers {
            for (length, piece) in [(1, 1), (15, 4), (16, 16), (17, 5), (100, 33)] {
                let key = randomBytes(cipher.keySize), iv = randomBytes(cipher.blockSize), message = randomBytes(length)
                var arguments = ["enc", "-\(cipher.name)-\(suffix)", "-K", hex(key), "-iv", hex(iv)]
                if cipher.legacy { arguments += ["-provider", "legacy", "-provider", "default"] }
                let expected = try OpenSSL.run(arguments + ["-e"], input: message)
                let encrypted = Self.run(kCCEncrypt, mode: mode, algorithm: cipher.algorithm, padding: ccPKCS7Padding,
                                         key: key, iv: iv, message, piece: piece)
                #expect(encrypted.status == kCCSuccess)
                #expect(encrypted.output == expected, "\(arguments[1]) length \(length) pieces of \(piece)")
                let decrypted = Self.run(kCCDecrypt, mode: mode, algorithm: cipher.algorithm, key: key, iv: iv, expected,
                                         piece: piece)
                #expect(decrypted.output == message, "\(arguments[1]) length \(length) pieces of \(piece)")
            }
        }
    }

    /// CCCryptorReset in the middle of a CTR block starts the counter over from the new IV.
    @Test func resetMidBlockStartsCounterModeOver() {
        let key = randomBytes(16), iv = randomBytes(16), message = randomBytes(40)
        let fresh = Self.run(kCCEncrypt, mode: kCCModeCTR, key: key, iv: iv, message, piece: 40).output
        var cryptor: CCCryptorRef?
        #expect(CCCryptorCreateWithMode(CCOperation(kCCEncrypt), CCMode(kCCModeCTR), CCAlgorithm(kCCAlgorithmAES), 0,
                                        randomBytes(16), key, key.count, nil, 0, 0, CCModeOptions(kCCModeOptionCTR_BE),
                                        &cryptor) == kCCSuccess)
        defer { CCCryptorRelease(cryptor) }
        var buffer = [UInt8](repeating: 0, count: 40)
        var moved = 0
        #expect(CCCryptorUpdate(cryptor, message, 5, &buffer, buffer.count, &moved) == kCCSuccess && moved == 5)
        #expect(CCCryptorReset(cryptor, iv) == kCCSuccess)
        #expect(CCCryptorUpdate(cryptor, message, message.count, &buffer, buffer.count, &moved) == kCCSuccess)
        #expect(Array(buffer[..<moved]) == fresh)
    }

    /// CCCryptorReset is for CBC and CTR only, as on Apple's systems since macOS 10.13: a
    /// cryptor of another mode answers kCCUnimplemented and goes on with its message as if the
    /// call had not been made.
    @Test(arguments: [kCCModeECB, kCCModeCFB, kCCModeCFB8, kCCModeOFB, kCCModeRC4])
    func resetOfOtherModesIsUnimplementedAndChangesNothing(mode: Int) {
        let algorithm = mode == kCCModeRC4 ? kCCAlgorithmRC4 : kCCAlgorithmAES
        let key = randomBytes(16), iv = randomBytes(16), message = randomBytes(48)
        let whole = Self.run(kCCEncrypt, mode: mode, algorithm: algorithm, key: key, iv: iv, message, piece: 48).output
        var cryptor: CCCryptorRef?
        #expect(CCCryptorCreateWithMode(CCOperation(kCCEncrypt), CCMode(mode), CCAlgorithm(algorithm), 0, iv,
                                        key, key.count, nil, 0, 0, 0, &cryptor) == kCCSuccess)
        defer { CCCryptorRelease(cryptor) }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 48)
        var moved = 0
        #expect(CCCryptorUpdate(cryptor, message, 5, &buffer, buffer.count, &moved) == kCCSuccess)
        output += buffer[..<moved]
        #expect(CCCryptorReset(cryptor, randomBytes(16)) == kCCUnimplemented)
        #expect(CCCryptorReset(cryptor, nil) == kCCUnimplemented)
        #expect(CCCryptorUpdate(cryptor, Array(message[5...]), 43, &buffer, buffer.count, &moved) == kCCSuccess)
        output += buffer[..<moved]
        #expect(CCCryptorFinal(cryptor, &buffer, buffer.count, &moved) == kCCSuccess)
        output += buffer[..<moved]
        #expect(output == whole)
    }

    /// ECB and CBC made with a mode give what CCCrypt gives with the same options.
    @Test func blockModesMatchCCCrypt() {
        let key = randomBytes(24), iv = randomBytes(16), message = randomBytes(50)
        let cbc = Self.run(kCCEncrypt, mode: kCCModeCBC, padding: ccPKCS7Padding, key: key, iv: iv, message, piece: 9)
        #expect(cbc.output == CryptorTests.crypt(kCCEncrypt, kCCOptionPKCS7Padding, key: key, iv: iv, message).output)
        let ecb = Self.run(kCCEncrypt, mode: kCCModeECB, padding: ccPKCS7Padding, key: key, iv: iv, message, piece: 9)
        #expect(ecb.output == CryptorTests.crypt(kCCEncrypt, kCCOptionPKCS7Padding | kCCOptionECBMode, key: key, iv: nil,
                                                 message).output)
        let whole = Array(message[..<48])
        let unpadded = Self.run(kCCDecrypt, mode: kCCModeCBC, key: key, iv: iv, whole, piece: 48)
        #expect(unpadded.output == CryptorTests.crypt(kCCDecrypt, 0, key: key, iv: iv, whole).output)
    }

    @Test func otherModesAndBadArguments() {
        let key = randomBytes(16), iv = randomBytes(16)
        for mode in [kCCModeXTS] {
            #expect(Self.run(kCCEncrypt, mode: mode, key: key, iv: iv, [1], piece: 1).status == kCCUnimplemented)
        }
        #expect(Self.run(kCCEncrypt, mode: 99, key: key, iv: iv, [1], piece: 1).status == kCCParamError)
        #expect(Self.run(kCCEncrypt, mode: kCCModeCBC, padding: 5, key: key, iv: iv, [1], piece: 1).status == kCCParamError)
        #expect(Self.run(kCCEncrypt, mode: kCCModeCTR, key: key, iv: iv, [1], piece: 1, options: kCCModeOptionCTR_LE).status
            == kCCUnimplemented)
        #expect(Self.run(kCCEncrypt, mode: kCCModeCTR, key: randomBytes(20), iv: iv, [1], piece: 1).status == kCCKeySizeError)
        #expect(CCCryptorCreateWithMode(0, CCMode(kCCModeCTR), 0, 0, iv, key, 16, nil, 0, 0, 0, nil) == kCCParamError)
    }
}
