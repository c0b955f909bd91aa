import Crypto
import Foundation
@testable import Security
import Testing
import TestSupport

/// ECIES as Apple's `eciesEncryption...AESGCM` algorithms (SecKey.h, SecKeyAdaptors.m): every
/// ciphertext checked against a decryption written here from Apple's description with
/// swift-crypto's primitives (ECDH, SHA, AES-GCM) and a hand-written X9.63 KDF, the reverse,
/// and ciphertexts made by Apple's Security framework.
@Suite("ECIES encryption (SecKey)")
struct EllipticCurveEncryptionTests {
    /// One ECIES algorithm as Apple's header describes it.
    struct Algorithm: Sendable, CustomTestStringConvertible {
        let algorithm: SecKeyAlgorithm
        let identifier: String
        let digest: HandDigest
        let derivesIV: Bool
        var testDescription: String { identifier }
    }

    /// Every ECIES algorithm Apple declares, with its identifier from SecKey.h / SecKeyAdaptors.m.
    static let algorithms: [Algorithm] = [
        Algorithm(algorithm: .eciesEncryptionStandardX963SHA1AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM", digest: .sha1, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionStandardX963SHA224AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM", digest: .sha224, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionStandardX963SHA256AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM", digest: .sha256, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionStandardX963SHA384AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM", digest: .sha384, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionStandardX963SHA512AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM", digest: .sha512, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionCofactorX963SHA1AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM", digest: .sha1, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionCofactorX963SHA224AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM", digest: .sha224, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionCofactorX963SHA256AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM", digest: .sha256, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionCofactorX963SHA384AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM", digest: .sha384, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionCofactorX963SHA512AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM", digest: .sha512, derivesIV: false),
        Algorithm(algorithm: .eciesEncryptionStandardVariableIVX963SHA224AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV", digest: .sha224, derivesIV: true),
        Algorithm(algorithm: .eciesEncryptionStandardVariableIVX963SHA256AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV", digest: .sha256, derivesIV: true),
        Algorithm(algorithm: .eciesEncryptionStandardVariableIVX963SHA384AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV", digest: .sha384, derivesIV: true),
        Algorithm(algorithm: .eciesEncryptionStandardVariableIVX963SHA512AESGCM, identifier: "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV", digest: .sha512, derivesIV: true),
        Algorithm(algorithm: .eciesEncryptionCofactorVariableIVX963SHA224AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV", digest: .sha224, derivesIV: true),
        Algorithm(algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV", digest: .sha256, derivesIV: true),
        Algorithm(algorithm: .eciesEncryptionCofactorVariableIVX963SHA384AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV", digest: .sha384, derivesIV: true),
        Algorithm(algorithm: .eciesEncryptionCofactorVariableIVX963SHA512AESGCM, identifier: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV", digest: .sha512, derivesIV: true),
    ]

    /// The algorithms this module performs: all of them.
    static let performed = algorithms

    private static let plaintext = Data("ECIES: the secret Apple's SecKeyCreateEncryptedData would seal".utf8)

    @Test("SecKey.h: each ECIES algorithm has Apple's identifier", arguments: algorithms)
    func identifier(_ algorithm: Algorithm) {
        #expect(algorithm.algorithm.rawValue as String == algorithm.identifier)
        #expect(SecKeyAlgorithm(rawValue: algorithm.identifier as CFString) == algorithm.algorithm)
    }

    @Test("ECIES: our ciphertext is ephemeral key ‖ AES-GCM ciphertext ‖ 16-byte tag and opens with a decryption written from Apple's description",
          arguments: performed, EllipticCurve.allCases)
    func ourCiphertextOpensByHand(_ algorithm: Algorithm, _ curve: EllipticCurve) throws {
        let recipient = EllipticCurvePrivateKey(randomOn: curve)
        let ciphertext = try EllipticCurveIntegratedEncryption.encrypt(Self.plaintext, for: recipient.publicKey,
                                                                       algorithm: algorithm.algorithm)
        #expect(ciphertext.count == 1 + 2 * curve.coordinateByteCount + Self.plaintext.count + 16)
        #expect(ciphertext.first == 0x04)
        let opened = try HandECIES.open(ciphertext, scalar: recipient.scalar, curve: curve,
                                        digest: algorithm.digest, derivesIV: algorithm.derivesIV)
        #expect(opened == Self.plaintext)
        // A fresh ephemeral key each time: the same message never gives the same ciphertext.
        let again = try EllipticCurveIntegratedEncryption.encrypt(Self.plaintext, for: recipient.publicKey,
                                                                  algorithm: algorithm.algorithm)
        #expect(again != ciphertext)
    }

    @Test("ECIES: a ciphertext sealed by hand from Apple's description decrypts to its plaintext",
          arguments: performed, EllipticCurve.allCases)
    func handCiphertextOpens(_ algorithm: Algorithm, _ curve: EllipticCurve) throws {
        let recipient = EllipticCurvePrivateKey(randomOn: curve)
        for message in [Data(), Data([0x42]), Self.plaintext, Data(repeating: 0xA5, count: 1000)] {
            let ciphertext = try HandECIES.seal(message, to: recipient.publicKey.x963Representation, curve: curve,
                                                digest: algorithm.digest, derivesIV: algorithm.derivesIV)
            let opened = try EllipticCurveIntegratedEncryption.decrypt(ciphertext, with: recipient,
                                                                       algorithm: algorithm.algorithm)
            #expect(opened == message)
        }
    }

    @Test("ECIES: Standard and Cofactor algorithms make the same ciphertexts on NIST curves (cofactor 1)",
          arguments: EllipticCurve.allCases)
    func standardAndCofactorAgree(_ curve: EllipticCurve) throws {
        let recipient = EllipticCurvePrivateKey(randomOn: curve)
        let pairs: [(SecKeyAlgorithm, SecKeyAlgorithm)] = [
            (.eciesEncryptionStandardX963SHA256AESGCM, .eciesEncryptionCofactorX963SHA256AESGCM),
            (.eciesEncryptionStandardVariableIVX963SHA384AESGCM, .eciesEncryptionCofactorVariableIVX963SHA384AESGCM),
        ]
        for (standard, cofactor) in pairs {
            let sealed = try EllipticCurveIntegratedEncryption.encrypt(Self.plaintext, for: recipient.publicKey, algorithm: standard)
            #expect(try EllipticCurveIntegratedEncryption.decrypt(sealed, with: recipient, algorithm: cofactor) == Self.plaintext)
        }
    }

    /// A ciphertext made by Apple's Security framework (`SecKeyCreateEncryptedData`) and the
    /// recipient's key (SEC 1 DER), published as test vectors by the MIT-licensed Go package
    /// jedda/ECIES (ecies_test.go, "TestExternalDecryptSuccess"); each plaintext is the vector's name.
    struct AppleVector: Sendable, CustomTestStringConvertible {
        let name: String
        let algorithm: SecKeyAlgorithm
        let key: String
        let ciphertext: String
        var testDescription: String { name }
    }

    static let appleVectors: [AppleVector] = [
        AppleVector(name: "P256-SHA224-0IV", algorithm: .eciesEncryptionCofactorX963SHA224AESGCM,
                    key: "MHcCAQEEIJyzfcyptwjYkgdcFhfJlztLPmcfyzyCFs7NoQuCbAAhoAoGCCqGSM49AwEHoUQDQgAE7WttwmG8qki5bU2utMaugBWbWD9Jx/UPzgnGxthgHteyqPGofBjBwPZTbxj+lrIGNyHRdbOkSusD7051WG8nmg==",
                    ciphertext: "BPIMheQOrz0l9wEjcOHQEQ16D9Go8Sm8bEM3LAgMEHUf/eHy3u0oVlfh2po9ocPCuKG2bQ28wlsQ0N6SNJ3O3auS/QeoUogLVcJ3+R1OOeixEJyqeUkn6zB8LcqoZ+Y2"),
        AppleVector(name: "P256-SHA256-VIV", algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
                    key: "MHcCAQEEIHGhxnpu3kG/nW5ozDZJ+TTFQvL6MynCcQWD6jHV4p0UoAoGCCqGSM49AwEHoUQDQgAEzgFYw3Rqc72IIYHV7JH6M245n/nLnxyre1A7sc5nOt31ZyfJQLXGs4dY0cggne28ueXHID5lKz1JNChY49NHYg==",
                    ciphertext: "BI6sBCGyf916GQSV3DHOvmFxOmzbV9pq08wcOdKaepP2/Qtepj9M71dYkzXf6OqIstDyyVIxfnAMfUpxZzoCHDbalYRzzwhqHwg7K6RNl1F29PVdLNtJH498yJSfloW/"),
        AppleVector(name: "P384-SHA224-0IV", algorithm: .eciesEncryptionCofactorX963SHA224AESGCM,
                    key: "MIGkAgEBBDAI18KI/52miF1/gGpYOOnvkwjXwGz/tOedlcbWhMTEfiAaAHSVTSzxd9Pyun5cRoCgBwYFK4EEACKhZANiAAR498VhIR9tTgyOUFdzJEQyqOU8mCs4mKPHzTcEUgfpX1J85ZOw+oFARLddhHQ7JvmgZfYQNC6CrzoL3H5ockG54Zkq2RV6kmn5mSonQGjD4lJ3ic0B2Jpb4DQHWDbcstA=",
                    ciphertext: "BHwqDkIP8+8hwXDlJ3W/Uw4oqVHhpg3Dbj/lx2ukwjwL3xSFNgGpNRhXUIv0Fs2qGxUXGKMGNIa+8/ebvHNuJqjV0pAR52HZ79dQWpB/esIy8/w514TSLSmp6fIk4Yt7gCy+mBKN/bC9nIwMCjiPSdpuhCt+Jc+KZZjgJ7BLUT4="),
        AppleVector(name: "P384-SHA384-VIV", algorithm: .eciesEncryptionCofactorVariableIVX963SHA384AESGCM,
                    key: "MIGkAgEBBDC5Lt6wBRiiEC2O71i3lv8Jtgg+YP4Y3gCj7B7nOtdQO/5PQPRjpFPJ3ft0yjbzHEagBwYFK4EEACKhZANiAAToVnztZKN1KVhot+MoN3CiPDZ0PoCDXrdP1uHQ61nz4XVrNdxgxyNUJC6cd0gsbujme66wxrq28zqWYBKvrFtIlS4W+NkuyCi5nABkHno7alAWv/fD7aQ8A3ZmWZohsaU=",
                    ciphertext: "BM45TREbxELfwpTVBmltz+sB3vhkM85m/yiAsE8JSNmXVOeeUGzmxP5Z2jegApPxtOS8ilfhTN/m2XkOoJWGw3MKuekq5V5PcdvAi5xKcoOEynkS7uAKS3nhBH/+g+9/iNoTcRSrEpbgm8dOCGe+VRQ7hK8vI0ZRw74kernlNDw="),
        AppleVector(name: "P384-SHA384-0IV", algorithm: .eciesEncryptionCofactorX963SHA384AESGCM,
                    key: "MIGkAgEBBDCveSReIMZa6hbWVgmESfu/jMpEqIldBHcx4nQ46zxJ+hvm4lnesKrn0P0BkFYZ0jSgBwYFK4EEACKhZANiAAT0ctzSPeNUinYOJdYtCafXAsTKHLGY4WPPRM8pYL5x1UrvnPN0G1yiF4QsTX2Pgyvh2qositdwRGxv3ruo1yR8TcztRXugZF4a5xmcZuQW8hcEmPuk+xS5XXUMzryiEQc=",
                    ciphertext: "BERkPl0YZUa9r7JV4W6n/rxsGBpzwdCpIgRaOKxRYuLHx3v5hGnTM1oGOEZzJQnpfvtperUyFfnPB5GP5ioxK4YkrqfjIlF0ip18v30o7TWReJ+MrKYWcC7/TGe/SxPagi/zX9uz4N0Jzp3GFarI5LUQ9mJNIna/3ajuBC9Du94="),
        AppleVector(name: "P521-SHA512-0IV", algorithm: .eciesEncryptionCofactorX963SHA512AESGCM,
                    key: "MIHcAgEBBEIAqKpwdZ9JdC3JdVpM7gj1Bgkep3LNTkYWqEYqwNe5w7oyzDh1yU0LVZzefyZNdaagU6DGNdZ+5u9cHqnh9GrQ5gWgBwYFK4EEACOhgYkDgYYABAD+MDxfbvbe9ZRZcZgWyDBbpf3JxHii0iScjxNqNWClJWlehHfX8niGE6VNktRQ3lMIwDSvUy3Esiex3gu8RHZnwAGzPjwLm1/w2YbOfp2TCNTL8m6eYUfLU0SNW7B61koL+Sk50yTHoseP7+lmM2t8x6uKsyLdo+XCIevpW8IEh0s5wg==",
                    ciphertext: "BABqJoMa89aD0rRkZ+WrmWTeqUfcr3uvLmyk7KlbWPm45m0ptDeqsaxFtqeM0VR6IoBMQcvcCcW+hzlLPr7i15LJlADzKYe7al7Vp10fJBnnhM2K7Z12o/VtOynEEt+ed5IkP9BiopN/3swl79caHQqXxX+SWQijwosMh0rGFJZPjsPFcPpe8Aj9CiJ3y0hRH1D4fp+qtpx9LOBLyuXvRwdFi0Y="),
        AppleVector(name: "P521-SHA512-VIV", algorithm: .eciesEncryptionCofactorVariableIVX963SHA512AESGCM,
                    key: "MIHcAgEBBEIAg0dkiDMo6frSBz50hC2luT3T0oMv/nPnu4nUR+x9PWuGic4cBHkrlrUOwyTBfGmug8fYxNy2ytJhBEyCGookSK+gBwYFK4EEACOhgYkDgYYABACAYs51q+pIrE2k92p2ltjs0iBHTe8Kj+w1+x5hfmXS1tX0aR+kabb5qe6Q83Bsvq/dmj3R59XWmIaTz6tJprSr2gDqS2i9wpWspmDND2dYvhKECXj099CQt19V94qYyUjbXMEDkpvq5ZWQ2DBOnR3XnuwWOYj+Pskg0lseKkok4CtJ4A==",
                    ciphertext: "BABIki+hjR7WmHUZz03yTelbH+eEwn0Dtpv8Fxwh7cyaue2ZceAytjlbQD2YA3FHC2Z0NMlk/B0C2Es8dZmPE9keEgBsUW0PjT4CyefgFIc2YEm5yDpcbJEKhj6FlGnOir1nJz8ZMTMdiY6vIrRCBLo6+Ek7iSfQIOGrdER3ESnE/gOdWsd4O3VmDQrwLboTIjKfngmBGlC5sdYUzSbQlsX2UUs="),
    ]

    @Test("ECIES: ciphertexts made by Apple's Security framework decrypt to their plaintext", arguments: appleVectors)
    func appleCiphertextDecrypts(_ vector: AppleVector) throws {
        let recipient = try Self.privateKey(sec1: vector.key)
        let ciphertext = try #require(Data(base64Encoded: vector.ciphertext))
        let opened = try EllipticCurveIntegratedEncryption.decrypt(ciphertext, with: recipient, algorithm: vector.algorithm)
        #expect(opened == Data(vector.name.utf8))
        // The hand-written decryption agrees, which checks the test's reading of Apple's description.
        let digest: HandDigest = vector.name.contains("SHA512") ? .sha512 : vector.name.contains("SHA384") ? .sha384
            : vector.name.contains("SHA224") ? .sha224 : .sha256
        #expect(try HandECIES.open(ciphertext, scalar: recipient.scalar, curve: recipient.curve, digest: digest,
                                   derivesIV: vector.name.hasSuffix("VIV")) == Data(vector.name.utf8))
    }

    @Test("ECIES: a changed byte in the ephemeral key, the ciphertext or the tag is errSecParam, never plaintext",
          arguments: performed.filter { $0.digest == .sha256 || $0.digest == .sha512 }, EllipticCurve.allCases)
    func tamperingFails(_ algorithm: Algorithm, _ curve: EllipticCurve) throws {
        let recipient = EllipticCurvePrivateKey(randomOn: curve)
        let ciphertext = try EllipticCurveIntegratedEncryption.encrypt(Self.plaintext, for: recipient.publicKey,
                                                                       algorithm: algorithm.algorithm)
        let point = 1 + 2 * curve.coordinateByteCount
        // A coordinate of the ephemeral key, the first and last byte of the AES ciphertext, the tag.
        for offset in [point / 2, point - 1, point, point + Self.plaintext.count - 1, ciphertext.count - 16, ciphertext.count - 1] {
            var changed = ciphertext
            changed[offset] ^= 0x01
            #expect(status { try EllipticCurveIntegratedEncryption.decrypt(changed, with: recipient, algorithm: algorithm.algorithm) } == errSecParam,
                    "byte \(offset) changed")
        }
        // Another recipient's key.
        let stranger = EllipticCurvePrivateKey(randomOn: curve)
        #expect(status { try EllipticCurveIntegratedEncryption.decrypt(ciphertext, with: stranger, algorithm: algorithm.algorithm) } == errSecParam)
        // The other IV rule: a VariableIV ciphertext under the zero-IV algorithm, and back.
        let otherIV = Self.performed.first { $0.digest == algorithm.digest && $0.derivesIV != algorithm.derivesIV }
        if let otherIV {
            #expect(status { try EllipticCurveIntegratedEncryption.decrypt(ciphertext, with: recipient, algorithm: otherIV.algorithm) } == errSecParam)
        }
        // Another hash.
        let otherHash: SecKeyAlgorithm = algorithm.digest == .sha256 ? .eciesEncryptionStandardVariableIVX963SHA512AESGCM
                                                                     : .eciesEncryptionStandardVariableIVX963SHA256AESGCM
        #expect(status { try EllipticCurveIntegratedEncryption.decrypt(ciphertext, with: recipient, algorithm: otherHash) } == errSecParam)
    }

    @Test("ECIES: input too short for the ephemeral key and the tag is errSecParam", arguments: EllipticCurve.allCases)
    func truncatedInputFails(_ curve: EllipticCurve) throws {
        let recipient = EllipticCurvePrivateKey(randomOn: curve)
        let ciphertext = try EllipticCurveIntegratedEncryption.encrypt(Data(), for: recipient.publicKey,
                                                                       algorithm: .eciesEncryptionStandardVariableIVX963SHA256AESGCM)
        #expect(ciphertext.count == 1 + 2 * curve.coordinateByteCount + 16)
        for length in 0..<ciphertext.count {
            #expect(status { try EllipticCurveIntegratedEncryption.decrypt(ciphertext.prefix(length), with: recipient, algorithm: .eciesEncryptionStandardVariableIVX963SHA256AESGCM) } == errSecParam,
                    "length \(length)")
        }
        #expect(try EllipticCurveIntegratedEncryption.decrypt(ciphertext, with: recipient, algorithm: .eciesEncryptionStandardVariableIVX963SHA256AESGCM).isEmpty)
    }

    /// The public calls reach ECIES: Apple's ciphertexts open through
    /// `SecKeyCreateDecryptedData` with a key made by `SecKeyCreateWithData`, what
    /// `SecKeyCreateEncryptedData` seals opens by hand, and `SecKeyIsAlgorithmSupported`
    /// says which half does what (a public key encrypts, a private key decrypts).
    @Test("ECIES through SecKeyCreateEncryptedData and SecKeyCreateDecryptedData", arguments: appleVectors)
    func publicCalls(_ vector: AppleVector) throws {
        let recipient = try Self.privateKey(sec1: vector.key)
        let x963 = recipient.publicKey.x963Representation + recipient.scalar
        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary
        let privateKey = try #require(SecKeyCreateWithData(x963 as CFData, attributes, nil))
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        #expect(SecKeyIsAlgorithmSupported(publicKey, .encrypt, vector.algorithm))
        #expect(SecKeyIsAlgorithmSupported(privateKey, .decrypt, vector.algorithm))
        #expect(!SecKeyIsAlgorithmSupported(privateKey, .encrypt, vector.algorithm))
        let ciphertext = try #require(Data(base64Encoded: vector.ciphertext))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateDecryptedData(privateKey, vector.algorithm, ciphertext as CFData, &error) as Data? == Data(vector.name.utf8))
        let sealed = try #require(SecKeyCreateEncryptedData(publicKey, vector.algorithm, Self.plaintext as CFData, &error) as Data?)
        let digest: HandDigest = vector.name.contains("SHA512") ? .sha512 : vector.name.contains("SHA384") ? .sha384
            : vector.name.contains("SHA224") ? .sha224 : .sha256
        #expect(try HandECIES.open(sealed, scalar: recipient.scalar, curve: recipient.curve, digest: digest,
                                   derivesIV: vector.name.hasSuffix("VIV")) == Self.plaintext)
        // The wrong half: Apple's "algorithm not supported by the key".
        #expect(SecKeyCreateEncryptedData(privateKey, vector.algorithm, Self.plaintext as CFData, nil) == nil)
    }

    @Test("ECIES: every algorithm Apple declares is supported, the SHA-224 ones included")
    func everyAlgorithmIsSupported() {
        for algorithm in Self.algorithms {
            #expect(EllipticCurveIntegratedEncryption.supports(algorithm.algorithm))
        }
    }

    @Test("ECIES: an algorithm that is not ECIES is not supported (errSecParam, as Apple's 'algorithm not supported by the key')")
    func otherAlgorithmsAreNotECIES() {
        let recipient = EllipticCurvePrivateKey(randomOn: .p256)
        for other in [SecKeyAlgorithm.ecdhKeyExchangeStandard, SecKeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:SHA256" as CFString),
                      SecKeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM:extra" as CFString)] {
            #expect(!EllipticCurveIntegratedEncryption.supports(other))
            #expect(status { try EllipticCurveIntegratedEncryption.encrypt(Self.plaintext, for: recipient.publicKey, algorithm: other) } == errSecParam)
            #expect(status { try EllipticCurveIntegratedEncryption.decrypt(Data(count: 200), with: recipient, algorithm: other) } == errSecParam)
        }
    }

    /// A fast sample of malformed ciphertexts (the long run belongs in Scripts/): a crash, a
    /// status other than errSecParam, or plaintext from changed bytes is a bug.
    @Test("ECIES fuzz sample: malformed ciphertexts give errSecParam only, and plaintext only when unchanged",
          arguments: EllipticCurve.allCases)
    func malformedCiphertexts(_ curve: EllipticCurve) throws {
        var random = SeededGenerator(seed: 0xEC1E5 &+ UInt64(curve.bitCount))
        let recipient = EllipticCurvePrivateKey(randomOn: curve)
        let algorithm = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        let valid = try EllipticCurveIntegratedEncryption.encrypt(Self.plaintext, for: recipient.publicKey, algorithm: algorithm)
        for round in 0..<150 {
            var input = valid
            switch round % 5 {
            case 0: // random bytes flipped
                for _ in 0...Int.random(in: 0..<4, using: &random) {
                    input[Int.random(in: 0..<input.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                }
            case 1: // cut short
                input = input.prefix(Int.random(in: 0..<input.count, using: &random))
            case 2: // bytes added
                input.append(contentsOf: (0..<Int.random(in: 1..<40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            case 3: // a point's prefix other than 04 (compressed, hybrid, nonsense)
                input[0] = [0x00, 0x02, 0x03, 0x05, 0x06, 0x07, 0xFF][round % 7]
            default: // noise of any length
                input = Data((0..<Int.random(in: 0..<300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            }
            do {
                let opened = try EllipticCurveIntegratedEncryption.decrypt(input, with: recipient, algorithm: algorithm)
                #expect(input == valid && opened == Self.plaintext, "round \(round) opened changed input")
            } catch {
                #expect(error.status == errSecParam, "round \(round): \(error.message)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    // MARK: - Helpers

    /// The status a failed call reports; errSecSuccess when it succeeds.
    private func status(_ body: () throws -> Data) -> OSStatus {
        do {
            _ = try body()
            return errSecSuccess
        } catch let failure as KeyFailure {
            return failure.status
        } catch {
            Issue.record("not a KeyFailure: \(error)")
            return errSecInternalError
        }
    }

    /// A private key from its SEC 1 DER encoding (base64), through swift-crypto's parser.
    private static func privateKey(sec1 base64: String) throws -> EllipticCurvePrivateKey {
        let der = try #require(Data(base64Encoded: base64))
        if let key = try? P256.Signing.PrivateKey(derRepresentation: der) { return .p256(key) }
        if let key = try? P384.Signing.PrivateKey(derRepresentation: der) { return .p384(key) }
        return .p521(try P521.Signing.PrivateKey(derRepresentation: der))
    }
}

/// The hashes of the X9.63 KDF, computed here by swift-crypto's hash functions alone.
enum HandDigest: Sendable {
    case sha1, sha224, sha256, sha384, sha512

    /// swift-crypto has no SHA-224: that one is the module's own (checked against NIST's
    /// examples and `openssl dgst -sha224` by SecKeySHA224Tests).
    func hash(_ data: Data) -> Data? {
        switch self {
        case .sha1: Data(Insecure.SHA1.hash(data: data))
        case .sha224: Data(SHA224.hash(data: data))
        case .sha256: Data(SHA256.hash(data: data))
        case .sha384: Data(SHA384.hash(data: data))
        case .sha512: Data(SHA512.hash(data: data))
        }
    }

    /// ANSI X9.63 KDF, written out: Hash(Z ‖ counter ‖ sharedInfo) for the 32-bit big-endian
    /// counter 1, 2, …, concatenated and cut to `count` bytes.
    func x963(_ secret: Data, sharedInfo: Data, count: Int) -> Data? {
        var output = Data()
        var counter: UInt32 = 1
        while output.count < count {
            guard let block = hash(secret + withUnsafeBytes(of: counter.bigEndian) { Data($0) } + sharedInfo) else { return nil }
            output += block
            counter += 1
        }
        return output.prefix(count)
    }
}

/// ECIES composed by hand from Apple's description in SecKey.h, with swift-crypto's ECDH and
/// AES-GCM: independent of the module's code.
enum HandECIES {
    struct Failure: Error {}

    /// The raw ECDH secret of a scalar and an X9.63 point.
    static func sharedSecret(scalar: Data, point: Data, curve: EllipticCurve) throws -> Data {
        let secret: SharedSecret = switch curve {
        case .p256: try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(with: .init(x963Representation: point))
        case .p384: try P384.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(with: .init(x963Representation: point))
        case .p521: try P521.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(with: .init(x963Representation: point))
        }
        return secret.withUnsafeBytes { Data($0) }
    }

    /// AES key (16 bytes up to 256-bit curves, else 32) and 16-byte IV (derived, or zeros).
    static func keyAndIV(secret: Data, ephemeralPoint: Data, curve: EllipticCurve, digest: HandDigest,
                         derivesIV: Bool) throws -> (SymmetricKey, Data) {
        let keyCount = curve.bitCount <= 256 ? 16 : 32
        guard let derived = digest.x963(secret, sharedInfo: ephemeralPoint, count: keyCount + (derivesIV ? 16 : 0)) else { throw Failure() }
        return (SymmetricKey(data: derived.prefix(keyCount)), derivesIV ? Data(derived.suffix(16)) : Data(count: 16))
    }

    static func seal(_ message: Data, to recipientPoint: Data, curve: EllipticCurve, digest: HandDigest,
                     derivesIV: Bool) throws -> Data {
        let ephemeral = EllipticCurvePrivateKey(randomOn: curve)
        let ephemeralPoint = ephemeral.publicKey.x963Representation
        let secret = try sharedSecret(scalar: ephemeral.scalar, point: recipientPoint, curve: curve)
        let (key, iv) = try keyAndIV(secret: secret, ephemeralPoint: ephemeralPoint, curve: curve, digest: digest, derivesIV: derivesIV)
        let box = try AES.GCM.seal(message, using: key, nonce: AES.GCM.Nonce(data: iv))
        return ephemeralPoint + box.ciphertext + box.tag
    }

    static func open(_ ciphertext: Data, scalar: Data, curve: EllipticCurve, digest: HandDigest,
                     derivesIV: Bool) throws -> Data {
        let pointCount = 1 + 2 * curve.coordinateByteCount
        guard ciphertext.count >= pointCount + 16 else { throw Failure() }
        let bytes = Data(ciphertext)
        let ephemeralPoint = bytes.prefix(pointCount)
        let secret = try sharedSecret(scalar: scalar, point: ephemeralPoint, curve: curve)
        let (key, iv) = try keyAndIV(secret: secret, ephemeralPoint: ephemeralPoint, curve: curve, digest: digest, derivesIV: derivesIV)
        let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: bytes[pointCount..<(bytes.count - 16)],
                                        tag: bytes.suffix(16))
        return try AES.GCM.open(box, using: key)
    }
}
