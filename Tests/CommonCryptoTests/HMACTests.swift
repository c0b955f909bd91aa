import CommonCrypto
import Testing

/// CommonHMAC against RFC 4231 (SHA-2), RFC 2202 (SHA-1, MD5) and openssl.
@Suite struct HMACTests {
    static let algorithms: [(name: String, algorithm: Int, length: Int)] = [
        ("sha1", kCCHmacAlgSHA1, 20), ("md5", kCCHmacAlgMD5, 16), ("sha224", kCCHmacAlgSHA224, 28),
        ("sha256", kCCHmacAlgSHA256, 32), ("sha384", kCCHmacAlgSHA384, 48), ("sha512", kCCHmacAlgSHA512, 64),
    ]

    static func mac(_ algorithm: Int, key: [UInt8], _ message: [UInt8], length: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        CCHmac(CCHmacAlgorithm(algorithm), key, key.count, message, message.count, &output)
        return output
    }

    @Test func constantsAreApples() {
        #expect([kCCHmacAlgSHA1, kCCHmacAlgMD5, kCCHmacAlgSHA256, kCCHmacAlgSHA384, kCCHmacAlgSHA512, kCCHmacAlgSHA224]
            == [0, 1, 2, 3, 4, 5])
    }

    @Test func rfc4231AndRFC2202() {
        let key1 = [UInt8](repeating: 0x0b, count: 20)
        let hiThere = Array("Hi There".utf8)
        #expect(hex(Self.mac(kCCHmacAlgSHA224, key: key1, hiThere, length: 28))
            == "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22")
        #expect(hex(Self.mac(kCCHmacAlgSHA256, key: key1, hiThere, length: 32))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(hex(Self.mac(kCCHmacAlgSHA384, key: key1, hiThere, length: 48))
            == "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6")
        #expect(hex(Self.mac(kCCHmacAlgSHA512, key: key1, hiThere, length: 64))
            == "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854")
        let jefe = Array("Jefe".utf8), question = Array("what do ya want for nothing?".utf8)
        #expect(hex(Self.mac(kCCHmacAlgSHA256, key: jefe, question, length: 32))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(hex(Self.mac(kCCHmacAlgSHA1, key: key1, hiThere, length: 20)) == "b617318655057264e28bc0b6fb378c8ef146be00")
        #expect(hex(Self.mac(kCCHmacAlgMD5, key: [UInt8](repeating: 0x0b, count: 16), hiThere, length: 16))
            == "9294727a3638bb1c13f48ef8158bfc9d")
        // RFC 4231 case 6: a key longer than the block, hashed first.
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        let case6 = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(hex(Self.mac(kCCHmacAlgSHA256, key: longKey, case6, length: 32))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    /// Random keys (shorter and longer than a block) and messages, against `openssl dgst -hmac`.
    @Test(arguments: algorithms.map(\.name))
    func matchesOpenSSL(name: String) throws {
        let algorithm = Self.algorithms.first { $0.name == name }!
        for (keyLength, messageLength) in [(1, 0), (16, 100), (64, 64), (200, 1000)] {
            let key = randomBytes(keyLength), message = randomBytes(messageLength)
            let expected = try OpenSSL.run(
                ["dgst", "-\(name)", "-binary", "-mac", "HMAC", "-macopt", "hexkey:\(hex(key))"], input: message)
            #expect(Self.mac(algorithm.algorithm, key: key, message, length: algorithm.length) == expected)
        }
    }

    @Test(arguments: algorithms.map(\.name))
    func contextMatchesOneShot(name: String) {
        let algorithm = Self.algorithms.first { $0.name == name }!
        let key = randomBytes(40), message = randomBytes(777)
        var context = CCHmacContext()
        CCHmacInit(&context, CCHmacAlgorithm(algorithm.algorithm), key, key.count)
        for start in stride(from: 0, to: message.count, by: 100) {
            let piece = Array(message[start..<min(start + 100, message.count)])
            CCHmacUpdate(&context, piece, piece.count)
        }
        var output = [UInt8](repeating: 0, count: algorithm.length)
        CCHmacFinal(&context, &output)
        #expect(output == Self.mac(algorithm.algorithm, key: key, message, length: algorithm.length))
    }

    /// The context allocated uninitialized, as a common snippet does, over leftover bytes.
    @Test func contextInUninitializedMemory() {
        let context = UnsafeMutablePointer<CCHmacContext>.allocate(capacity: 1)
        defer { context.deallocate() }
        UnsafeMutableRawPointer(context).initializeMemory(as: UInt8.self, repeating: 0x5A,
                                                          count: MemoryLayout<CCHmacContext>.size)
        let key = Array("Jefe".utf8), message = Array("what do ya want for nothing?".utf8)
        CCHmacInit(context, CCHmacAlgorithm(kCCHmacAlgSHA256), key, key.count)
        CCHmacUpdate(context, message, message.count)
        var output = [UInt8](repeating: 0, count: 32)
        CCHmacFinal(context, &output)
        #expect(hex(output) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// An unknown algorithm, a null key or message with a length, or a context never
    /// initialized, writes no MAC.
    @Test func badCallsWriteNothing() {
        var output = [UInt8](repeating: 0xEE, count: 64)
        CCHmac(99, "key", 3, "data", 4, &output)
        CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), nil, 3, "data", 4, &output)
        CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), "key", 3, nil, 4, &output)
        CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), "key", 3, "data", 4, nil)
        var never = CCHmacContext()
        CCHmacUpdate(&never, "data", 4)
        CCHmacFinal(&never, &output)
        #expect(output == [UInt8](repeating: 0xEE, count: 64))
        // An empty key and message are fine, as on Apple platforms.
        CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), nil, 0, nil, 0, &output)
        #expect(hex(Array(output[..<32])) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
