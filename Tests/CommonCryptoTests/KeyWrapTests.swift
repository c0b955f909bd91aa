import CommonCrypto
import Testing

/// AES key wrap against RFC 3394's vectors and `openssl enc -id-aesN-wrap`.
@Suite struct KeyWrapTests {
    static func wrap(kek: [UInt8], key: [UInt8]) -> (Int32, [UInt8]) {
        var wrapped = [UInt8](repeating: 0, count: CCSymmetricWrappedSize(CCWrappingAlgorithm(kCCWRAPAES), key.count))
        var length = wrapped.count
        let status = CCSymmetricKeyWrap(CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen, kek, kek.count,
                                        key, key.count, &wrapped, &length)
        return (status, Array(wrapped[..<length]))
    }

    static func unwrap(kek: [UInt8], wrapped: [UInt8]) -> (Int32, [UInt8]) {
        var key = [UInt8](repeating: 0, count: CCSymmetricUnwrappedSize(CCWrappingAlgorithm(kCCWRAPAES), wrapped.count))
        var length = key.count
        let status = CCSymmetricKeyUnwrap(CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen, kek, kek.count,
                                          wrapped, wrapped.count, &key, &length)
        return (status, Array(key[..<length]))
    }

    @Test func constants() {
        #expect(kCCWRAPAES == 1)
        #expect(CCrfc3394_ivLen == 8)
        #expect(Array(UnsafeBufferPointer(start: CCrfc3394_iv, count: CCrfc3394_ivLen)) == [UInt8](repeating: 0xA6, count: 8))
        #expect(CCSymmetricWrappedSize(CCWrappingAlgorithm(kCCWRAPAES), 16) == 24)
        #expect(CCSymmetricUnwrappedSize(CCWrappingAlgorithm(kCCWRAPAES), 40) == 32)
    }

    /// RFC 3394 sections 4.1, 4.3 and 4.6.
    @Test func rfc3394() {
        let cases: [(kek: String, key: String, wrapped: String)] = [
            ("000102030405060708090A0B0C0D0E0F", "00112233445566778899AABBCCDDEEFF",
             "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"),
            ("000102030405060708090A0B0C0D0E0F1011121314151617", "00112233445566778899AABBCCDDEEFF",
             "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D"),
            ("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
             "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F",
             "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"),
        ]
        for item in cases {
            let (status, wrapped) = Self.wrap(kek: hex(item.kek), key: hex(item.key))
            #expect(status == kCCSuccess)
            #expect(wrapped == hex(item.wrapped))
            let (unwrapStatus, key) = Self.unwrap(kek: hex(item.kek), wrapped: hex(item.wrapped))
            #expect(unwrapStatus == kCCSuccess)
            #expect(key == hex(item.key))
        }
    }

    @Test(arguments: [16, 24, 32])
    func matchesOpenSSL(kekSize: Int) throws {
        for keySize in [16, 24, 32, 64] {
            let kek = randomBytes(kekSize), key = randomBytes(keySize)
            let expected = try OpenSSL.run(["enc", "-id-aes\(kekSize * 8)-wrap", "-K", hex(kek), "-iv", "A6A6A6A6A6A6A6A6"],
                                           input: key)
            #expect(Self.wrap(kek: kek, key: key).1 == expected)
        }
    }

    @Test func badInput() {
        let kek = randomBytes(16), key = randomBytes(16)
        let (_, wrapped) = Self.wrap(kek: kek, key: key)
        var otherKEK = kek
        otherKEK[3] ^= 0x10
        #expect(Self.unwrap(kek: otherKEK, wrapped: wrapped).0 == kCCDecodeError)
        var tampered = wrapped
        tampered[10] ^= 1
        #expect(Self.unwrap(kek: kek, wrapped: tampered).0 == kCCDecodeError)
        #expect(Self.wrap(kek: randomBytes(20), key: key).0 == kCCParamError)
        #expect(Self.wrap(kek: kek, key: randomBytes(12)).0 == kCCParamError)
        #expect(Self.wrap(kek: kek, key: randomBytes(8)).0 == kCCParamError)
        var small = [UInt8](repeating: 0, count: 23)
        var length = small.count
        #expect(CCSymmetricKeyWrap(CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen, kek, 16, key, 16, &small,
                                   &length) == kCCParamError)
        let otherIV = [UInt8](repeating: 0xA5, count: 8)
        var room = [UInt8](repeating: 0, count: 24)
        length = 24
        #expect(CCSymmetricKeyWrap(CCWrappingAlgorithm(kCCWRAPAES), otherIV, 8, kek, 16, key, 16, &room, &length)
            == kCCParamError)
        #expect(CCSymmetricKeyWrap(2, CCrfc3394_iv, CCrfc3394_ivLen, kek, 16, key, 16, &room, &length) == kCCParamError)
        #expect(CCSymmetricKeyWrap(CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen, kek, 16, key, 16, &room, nil)
            == kCCParamError)
        var unwrapped = [UInt8](repeating: 0, count: 16)
        length = 16
        #expect(CCSymmetricKeyUnwrap(CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen, kek, 16, wrapped, 20,
                                     &unwrapped, &length) == kCCParamError)
        #expect(unwrapped == [UInt8](repeating: 0, count: 16))
    }
}
