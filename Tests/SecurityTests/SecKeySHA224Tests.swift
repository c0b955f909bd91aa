import Foundation
import Security
import Testing
import TestSupport

/// The module's SHA-224 (swift-crypto has none), seen through the algorithms that use it:
/// PKCS #1 v1.5 signatures are deterministic, so signing a message with the SHA-224 message
/// algorithm equals signing its digest with the digest algorithm exactly when the module's
/// digest is that digest. The digests come from FIPS 180-4's examples and from `openssl dgst
/// -sha224`.
@Suite("SecKey SHA-224")
struct SecKeySHA224Tests {
    private static func hex(_ text: String) -> Data {
        var bytes = Data()
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    // Rule: FIPS 180-4 / NIST's SHA-224 examples ("abc", the empty message, the 448-bit
    // two-block message, a million "a").
    @Test("SHA-224 gives NIST's example digests")
    func nistExamples() throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeRSA, bits: 2048)
        let examples: [(Data, String)] = [
            (Data("abc".utf8), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
            (Data(), "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"),
            (Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
             "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"),
            (Data(repeating: UInt8(ascii: "a"), count: 1_000_000), "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"),
        ]
        for (message, digest) in examples {
            #expect(try SecKeyCalls.sign(key, .rsaSignatureMessagePKCS1v15SHA224, message)
                    == SecKeyCalls.sign(key, .rsaSignatureDigestPKCS1v15SHA224, Self.hex(digest)))
        }
    }

    // Rule: the digest is openssl's for messages of every length around the block and
    // padding boundaries (55/56 bytes fit one block's padding or not, 64 is a whole block).
    @Test("SHA-224 agrees with openssl around block boundaries")
    func agreesWithOpenSSL() throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let publicKey = try SecKeyCalls.publicKey(key)
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let message = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let digest = SHA224Reference.digest(message)
            try #require(digest.count == 28)
            // A signature of the message verifies as a signature of openssl's digest.
            let signature = try SecKeyCalls.sign(key, .ecdsaSignatureMessageX962SHA224, message)
            #expect(SecKeyCalls.verify(publicKey, .ecdsaSignatureDigestX962SHA224, digest, signature) == (true, nil), "length \(length)")
        }
    }
}
