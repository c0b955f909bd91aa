import CommonCrypto
import Testing

/// CCCrypt and the CCCryptor calls with RC4 (kCCAlgorithmRC4, kCCModeRC4): against `openssl enc`
/// (its legacy provider) for 40- and 128-bit keys, in pieces, and Apple's statuses for bad input.
@Suite struct RC4CryptorTests {
    @Test func constantsAreApples() {
        #expect([kCCAlgorithmRC4, kCCKeySizeMinRC4, kCCKeySizeMaxRC4, kCCModeRC4] == [4, 1, 512, 9])
    }

    /// Random keys and messages against `openssl enc -rc4-40` and `-rc4`, both ways; the
    /// options (padding, ECB) do not apply to a stream cipher and change nothing.
    @Test(arguments: [(5, "-rc4-40"), (16, "-rc4")])
    func matchesOpenSSL(keySize: Int, cipher: String) throws {
        for length in [1, 17, 100, 1000] {
            let key = randomBytes(keySize), message = randomBytes(length)
            let arguments = ["enc", cipher, "-K", hex(key), "-provider", "legacy", "-provider", "default"]
            try expectSameAsOpenSSL(kCCAlgorithmRC4, 0, key: key, iv: nil, message, openSSL: arguments)
            let padded = cryptOnce(kCCEncrypt, kCCAlgorithmRC4, kCCOptionPKCS7Padding | kCCOptionECBMode, key: key, iv: nil,
                                   message)
            #expect(padded.status == kCCSuccess)
            #expect(padded.output == cryptOnce(kCCEncrypt, kCCAlgorithmRC4, 0, key: key, iv: nil, message).output)
        }
    }

    /// The keystream continues from one update to the next, and CCCryptorCreateWithMode with
    /// kCCModeRC4 makes the same cryptor.
    @Test func inPiecesAndWithMode() {
        let key = randomBytes(24), message = randomBytes(300)
        let whole = cryptOnce(kCCEncrypt, kCCAlgorithmRC4, 0, key: key, iv: nil, message)
        #expect(whole.status == kCCSuccess && whole.output.count == message.count)
        for piece in [1, 3, 7, 64] {
            #expect(cryptInPieces(kCCEncrypt, kCCAlgorithmRC4, 0, key: key, iv: [], message, piece: piece) == whole.output)
        }
        var cryptor: CCCryptorRef?
        #expect(CCCryptorCreateWithMode(CCOperation(kCCDecrypt), CCMode(kCCModeRC4), CCAlgorithm(kCCAlgorithmRC4), 0, nil,
                                        key, key.count, nil, 0, 0, 0, &cryptor) == kCCSuccess)
        defer { CCCryptorRelease(cryptor) }
        var output = [UInt8](repeating: 0, count: message.count)
        var moved = 0
        #expect(CCCryptorUpdate(cryptor, whole.output, whole.output.count, &output, output.count, &moved) == kCCSuccess)
        #expect(moved == message.count && output == message)
    }

    /// Keys of 1 and 512 bytes are taken, 0 and 513 are kCCKeySizeError; RC4's mode with
    /// another algorithm, or RC4 in a block mode, is kCCParamError.
    @Test func badInput() {
        let message = randomBytes(10)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithmRC4, 0, key: randomBytes(1), iv: nil, message).status == kCCSuccess)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithmRC4, 0, key: randomBytes(512), iv: nil, message).status == kCCSuccess)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithmRC4, 0, key: [], iv: nil, message).status == kCCKeySizeError)
        #expect(cryptOnce(kCCEncrypt, kCCAlgorithmRC4, 0, key: randomBytes(513), iv: nil, message).status == kCCKeySizeError)
        var cryptor: CCCryptorRef?
        let key = randomBytes(16)
        #expect(CCCryptorCreateWithMode(CCOperation(kCCEncrypt), CCMode(kCCModeRC4), CCAlgorithm(kCCAlgorithmAES), 0, nil,
                                        key, key.count, nil, 0, 0, 0, &cryptor) == kCCParamError)
        #expect(CCCryptorCreateWithMode(CCOperation(kCCEncrypt), CCMode(kCCModeCBC), CCAlgorithm(kCCAlgorithmRC4), 0, nil,
                                        key, key.count, nil, 0, 0, 0, &cryptor) == kCCParamError)
        #expect(cryptor == nil)
    }
}
