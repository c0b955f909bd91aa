import CommonCrypto
import Foundation
import Testing

/// CommonDigest's hashes against FIPS 180-4's and RFC 1321's examples and against openssl.
@Suite struct DigestTests {
    typealias OneShot = (UnsafeRawPointer?, CC_LONG, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?

    static var algorithms: [(name: String, length: Int32, oneShot: OneShot)] { [
        ("md5", CC_MD5_DIGEST_LENGTH, { CC_MD5($0, $1, $2) }),
        ("sha1", CC_SHA1_DIGEST_LENGTH, { CC_SHA1($0, $1, $2) }),
        ("sha224", CC_SHA224_DIGEST_LENGTH, { CC_SHA224($0, $1, $2) }),
        ("sha256", CC_SHA256_DIGEST_LENGTH, { CC_SHA256($0, $1, $2) }),
        ("sha384", CC_SHA384_DIGEST_LENGTH, { CC_SHA384($0, $1, $2) }),
        ("sha512", CC_SHA512_DIGEST_LENGTH, { CC_SHA512($0, $1, $2) }),
    ] }

    static func digest(_ name: String, _ message: [UInt8]) -> [UInt8] {
        let algorithm = algorithms.first { $0.name == name }!
        var output = [UInt8](repeating: 0, count: Int(algorithm.length))
        let returned = message.withUnsafeBytes { algorithm.oneShot($0.baseAddress, CC_LONG(message.count), &output) }
        #expect(returned != nil)
        return output
    }

    @Test func lengthsAreApples() {
        #expect([CC_MD5_DIGEST_LENGTH, CC_SHA1_DIGEST_LENGTH, CC_SHA224_DIGEST_LENGTH, CC_SHA256_DIGEST_LENGTH,
                 CC_SHA384_DIGEST_LENGTH, CC_SHA512_DIGEST_LENGTH] == [16, 20, 28, 32, 48, 64])
        #expect([CC_SHA1_BLOCK_BYTES, CC_SHA224_BLOCK_BYTES, CC_SHA256_BLOCK_BYTES, CC_SHA384_BLOCK_BYTES,
                 CC_SHA512_BLOCK_BYTES, CC_MD5_BLOCK_BYTES] == [64, 64, 64, 128, 128, 64])
    }

    /// FIPS 180-4's examples ("abc" and the two-block message) and RFC 1321's.
    @Test func publishedVectors() {
        let abc = Array("abc".utf8)
        let twoBlocks = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(Self.digest("md5", abc)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(hex(Self.digest("md5", [])) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(hex(Self.digest("sha1", abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(Self.digest("sha1", twoBlocks)) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(Self.digest("sha224", abc)) == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        #expect(hex(Self.digest("sha224", twoBlocks)) == "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525")
        #expect(hex(Self.digest("sha224", [])) == "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f")
        #expect(hex(Self.digest("sha256", abc)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(Self.digest("sha256", twoBlocks)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(Self.digest("sha256", [])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Self.digest("sha384", abc))
            == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(hex(Self.digest("sha512", abc))
            == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }

    /// Random messages of lengths around the block boundaries, against `openssl dgst`.
    @Test(arguments: ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"])
    func matchesOpenSSL(algorithm: String) throws {
        for length in [0, 1, 55, 56, 64, 111, 112, 128, 1000, 4097] {
            let message = randomBytes(length)
            let expected = try OpenSSL.run(["dgst", "-\(algorithm)", "-binary"], input: message)
            #expect(Self.digest(algorithm, message) == expected, "\(algorithm) of \(hex(message))")
        }
    }

    /// The context API gives the one-shot digest whatever the chunks, and FIPS 180's
    /// million-"a" digests through many updates.
    @Test func contextsMatchOneShot() {
        let message = randomBytes(3000)
        for chunk in [1, 63, 64, 65, 1000, 3000] {
            var sha1 = CC_SHA1_CTX(), sha224 = CC_SHA256_CTX(), sha256 = CC_SHA256_CTX()
            var sha384 = CC_SHA512_CTX(), sha512 = CC_SHA512_CTX(), md5 = CC_MD5_CTX()
            #expect(CC_SHA1_Init(&sha1) == 1 && CC_SHA224_Init(&sha224) == 1 && CC_SHA256_Init(&sha256) == 1)
            #expect(CC_SHA384_Init(&sha384) == 1 && CC_SHA512_Init(&sha512) == 1 && CC_MD5_Init(&md5) == 1)
            for start in stride(from: 0, to: message.count, by: chunk) {
                let piece = Array(message[start..<min(start + chunk, message.count)])
                #expect(CC_SHA1_Update(&sha1, piece, CC_LONG(piece.count)) == 1)
                #expect(CC_SHA224_Update(&sha224, piece, CC_LONG(piece.count)) == 1)
                #expect(CC_SHA256_Update(&sha256, piece, CC_LONG(piece.count)) == 1)
                #expect(CC_SHA384_Update(&sha384, piece, CC_LONG(piece.count)) == 1)
                #expect(CC_SHA512_Update(&sha512, piece, CC_LONG(piece.count)) == 1)
                #expect(CC_MD5_Update(&md5, piece, CC_LONG(piece.count)) == 1)
            }
            var out1 = [UInt8](repeating: 0, count: 20), out224 = [UInt8](repeating: 0, count: 28)
            var out256 = [UInt8](repeating: 0, count: 32), out384 = [UInt8](repeating: 0, count: 48)
            var out512 = [UInt8](repeating: 0, count: 64), outMD5 = [UInt8](repeating: 0, count: 16)
            #expect(CC_SHA1_Final(&out1, &sha1) == 1 && CC_SHA224_Final(&out224, &sha224) == 1)
            #expect(CC_SHA256_Final(&out256, &sha256) == 1 && CC_SHA384_Final(&out384, &sha384) == 1)
            #expect(CC_SHA512_Final(&out512, &sha512) == 1 && CC_MD5_Final(&outMD5, &md5) == 1)
            #expect(out1 == Self.digest("sha1", message) && out224 == Self.digest("sha224", message))
            #expect(out256 == Self.digest("sha256", message) && out384 == Self.digest("sha384", message))
            #expect(out512 == Self.digest("sha512", message) && outMD5 == Self.digest("md5", message))
        }
        var context = CC_SHA256_CTX()
        _ = CC_SHA256_Init(&context)
        let thousand = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { _ = CC_SHA256_Update(&context, thousand, 1000) }
        var digest = [UInt8](repeating: 0, count: 32)
        _ = CC_SHA256_Final(&digest, &context)
        #expect(hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// A context in memory allocated and never initialized, as C-minded code allocates it,
    /// whatever bytes the memory held before.
    @Test func contextInUninitializedMemory() {
        for leftover in [UInt8(0), 0xAB, 0xFF] {
            let context = UnsafeMutablePointer<CC_SHA256_CTX>.allocate(capacity: 1)
            defer { context.deallocate() }
            UnsafeMutableRawPointer(context).initializeMemory(as: UInt8.self, repeating: leftover,
                                                              count: MemoryLayout<CC_SHA256_CTX>.size)
            var digest = [UInt8](repeating: 0, count: 32)
            #expect(CC_SHA256_Update(context, "abc", 3) == 0)
            #expect(CC_SHA256_Init(context) == 1)
            #expect(CC_SHA256_Update(context, "abc", 3) == 1)
            #expect(CC_SHA256_Final(&digest, context) == 1)
            #expect(digest == Self.digest("sha256", Array("abc".utf8)))
        }
    }

    /// Contexts in progress on many threads at once keep to their own computations.
    @Test func contextsOnManyThreads() {
        let messages = (0..<16).map { _ in randomBytes(2000) }
        // Each thread writes its own two slots.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: messages.count * 2)
        results.initialize(repeating: [])
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: messages.count) { index in
            let message = messages[index]
            var context = CC_SHA256_CTX()
            var hmac = CCHmacContext()
            CC_SHA256_Init(&context)
            CCHmacInit(&hmac, CCHmacAlgorithm(kCCHmacAlgSHA256), "key", 3)
            for start in stride(from: 0, to: message.count, by: 100) {
                CC_SHA256_Update(&context, Array(message[start..<start + 100]), 100)
                CCHmacUpdate(&hmac, Array(message[start..<start + 100]), 100)
            }
            var digest = [UInt8](repeating: 0, count: 32), mac = [UInt8](repeating: 0, count: 32)
            CC_SHA256_Final(&digest, &context)
            CCHmacFinal(&hmac, &mac)
            results[index * 2] = digest
            results[index * 2 + 1] = mac
        }
        for (index, message) in messages.enumerated() {
            #expect(results[index * 2] == Self.digest("sha256", message))
            var mac = [UInt8](repeating: 0, count: 32)
            CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), "key", 3, message, message.count, &mac)
            #expect(results[index * 2 + 1] == mac)
        }
    }

    /// Bad calls return 0 or nil and write nothing, rather than crash or overflow.
    @Test func badCallsWriteNothing() {
        var output = [UInt8](repeating: 0xEE, count: 32)
        #expect(CC_SHA256(nil, 5, &output) == nil)
        #expect(CC_SHA256("abc", 3, nil) == nil)
        #expect(output == [UInt8](repeating: 0xEE, count: 32))
        #expect(CC_SHA256(nil, 0, &output) != nil)
        #expect(hex(output) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")

        var never = CC_SHA256_CTX()
        output = [UInt8](repeating: 0xEE, count: 32)
        #expect(CC_SHA256_Update(&never, "abc", 3) == 0)
        #expect(CC_SHA256_Final(&output, &never) == 0)
        #expect(CC_SHA256_Init(nil) == 0)
        // A SHA-256 context finished as SHA-224, or the reverse, is refused: the lengths differ.
        var sha256 = CC_SHA256_CTX()
        _ = CC_SHA256_Init(&sha256)
        var short = [UInt8](repeating: 0xEE, count: 28)
        #expect(CC_SHA224_Final(&short, &sha256) == 0)
        #expect(short == [UInt8](repeating: 0xEE, count: 28))
        // Final empties the context.
        #expect(CC_SHA256_Final(&output, &sha256) == 1)
        #expect(CC_SHA256_Final(&output, &sha256) == 0)
    }
}
