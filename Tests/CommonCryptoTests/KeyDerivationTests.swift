import CommonCrypto
import Testing

/// PBKDF2 against RFC 6070 (HMAC-SHA-1), the widely published HMAC-SHA-256 vectors for the
/// same inputs, and `openssl kdf`.
@Suite struct KeyDerivationTests {
    static func derive(_ password: [UInt8], _ salt: [UInt8], prf: Int, rounds: UInt32, length: Int) -> (Int32, [UInt8]) {
        var key = [UInt8](repeating: 0, count: length)
        let passwordChars = password.map { CChar(bitPattern: $0) }
        let status = CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), passwordChars, passwordChars.count, salt, salt.count,
                                          CCPseudoRandomAlgorithm(prf), rounds, &key, length)
        return (status, key)
    }

    @Test func constantsAreApples() {
        #expect(kCCPBKDF2 == 2)
        #expect([kCCPRFHmacAlgSHA1, kCCPRFHmacAlgSHA224, kCCPRFHmacAlgSHA256, kCCPRFHmacAlgSHA384, kCCPRFHmacAlgSHA512]
            == [1, 2, 3, 4, 5])
    }

    @Test func rfc6070() {
        let password = Array("password".utf8), salt = Array("salt".utf8)
        #expect(hex(Self.derive(password, salt, prf: kCCPRFHmacAlgSHA1, rounds: 1, length: 20).1)
            == "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        #expect(hex(Self.derive(password, salt, prf: kCCPRFHmacAlgSHA1, rounds: 2, length: 20).1)
            == "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
        #expect(hex(Self.derive(password, salt, prf: kCCPRFHmacAlgSHA1, rounds: 4096, length: 20).1)
            == "4b007901b765489abead49d926f721d065a429c1")
        #expect(hex(Self.derive(Array("passwordPASSWORDpassword".utf8), Array("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8),
                                prf: kCCPRFHmacAlgSHA1, rounds: 4096, length: 25).1)
            == "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
        #expect(hex(Self.derive(Array("pass\0word".utf8), Array("sa\0lt".utf8), prf: kCCPRFHmacAlgSHA1, rounds: 4096,
                                length: 16).1)
            == "56fa6aa75548099dcc37d7f03425e0c3")
        #expect(hex(Self.derive(password, salt, prf: kCCPRFHmacAlgSHA256, rounds: 1, length: 32).1)
            == "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
        #expect(hex(Self.derive(password, salt, prf: kCCPRFHmacAlgSHA256, rounds: 4096, length: 32).1)
            == "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
    }

    @Test(arguments: [(kCCPRFHmacAlgSHA1, "SHA1"), (kCCPRFHmacAlgSHA224, "SHA224"), (kCCPRFHmacAlgSHA256, "SHA256"),
                      (kCCPRFHmacAlgSHA384, "SHA384"), (kCCPRFHmacAlgSHA512, "SHA512")])
    func matchesOpenSSL(prf: Int, digest: String) throws {
        for (passwordLength, saltLength, length) in [(1, 8, 16), (20, 16, 32), (100, 32, 100)] {
            let password = randomBytes(passwordLength), salt = randomBytes(saltLength)
            let expected = try OpenSSL.run([
                "kdf", "-keylen", "\(length)", "-kdfopt", "digest:\(digest)", "-kdfopt", "hexpass:\(hex(password))",
                "-kdfopt", "hexsalt:\(hex(salt))", "-kdfopt", "iter:1000", "PBKDF2",
            ])
            let (status, key) = Self.derive(password, salt, prf: prf, rounds: 1000, length: length)
            #expect(status == kCCSuccess)
            #expect(key == expected)
        }
    }

    @Test func badInputIsParamError() {
        var key = [UInt8](repeating: 0, count: 16)
        let salt: [UInt8] = [1, 2, 3, 4]
        #expect(CCKeyDerivationPBKDF(1, "pw", 2, salt, 4, CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 10, &key, 16)
            == kCCParamError)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, salt, 4, 9, 10, &key, 16) == kCCParamError)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), nil, 2, salt, 4, 3, 10, &key, 16) == kCCParamError)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, nil, 4, 3, 10, &key, 16) == kCCParamError)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, salt, 4, 3, 0, &key, 16) == kCCParamError)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, salt, 4, 3, 10, nil, 16) == kCCParamError)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, salt, 4, 3, 10, &key, 0) == kCCParamError)
        #expect(key == [UInt8](repeating: 0, count: 16))
    }

    /// Calibration returns more rounds for more time, and bad parameters get UInt32.max.
    @Test func calibration() {
        let rounds = CCCalibratePBKDF(CCPBKDFAlgorithm(kCCPBKDF2), 8, 16, CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 32, 100)
        #expect(rounds > 1000 && rounds < UInt32.max)
        #expect(CCCalibratePBKDF(7, 8, 16, 3, 32, 100) == UInt32.max)
        #expect(CCCalibratePBKDF(CCPBKDFAlgorithm(kCCPBKDF2), 8, 0, 3, 32, 100) == UInt32.max)
    }
}
