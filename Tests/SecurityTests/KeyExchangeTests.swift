import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// SecKeyCopyKeyExchangeResult through the public API, as Apple documents it in SecKey.h:
/// the raw ECDH secret checked against `openssl pkeyutl -derive`, the X9.63 variants against
/// the KDF written out in the ECIES tests (HandDigest), and Apple's errors.
@Suite("ECDH key exchange (SecKeyCopyKeyExchangeResult)")
struct KeyExchangeTests {
    enum Curve: String, Sendable, CaseIterable {
        case p256 = "P-256", p384 = "P-384", p521 = "P-521"
        var coordinateByteCount: Int { self == .p256 ? 32 : self == .p384 ? 48 : 66 }
    }

    /// An elliptic-curve key pair made by swift-crypto, with what each side hands to the API.
    struct Pair {
        let curve: Curve
        let scalar: Data
        let point: Data
        let privatePEM: String
        let publicPEM: String

        init(_ curve: Curve) {
            self.curve = curve
            switch curve {
            case .p256:
                let key = P256.KeyAgreement.PrivateKey()
                (scalar, point, privatePEM, publicPEM) = (key.rawRepresentation, key.publicKey.x963Representation, key.pemRepresentation, key.publicKey.pemRepresentation)
            case .p384:
                let key = P384.KeyAgreement.PrivateKey()
                (scalar, point, privatePEM, publicPEM) = (key.rawRepresentation, key.publicKey.x963Representation, key.pemRepresentation, key.publicKey.pemRepresentation)
            case .p521:
                let key = P521.KeyAgreement.PrivateKey()
                (scalar, point, privatePEM, publicPEM) = (key.rawRepresentation, key.publicKey.x963Representation, key.pemRepresentation, key.publicKey.pemRepresentation)
            }
        }

        func privateKey() throws -> SecKey {
            try #require(SecKeyCreateWithData((point + scalar) as CFData, [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
            ] as CFDictionary, nil))
        }

        func publicKey() throws -> SecKey {
            try #require(SecKeyCreateWithData(point as CFData, [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPublic,
            ] as CFDictionary, nil))
        }

        /// The raw ECDH secret with another key of the curve, by swift-crypto directly.
        func sharedSecret(with other: Pair) throws -> Data {
            let secret: SharedSecret = switch curve {
            case .p256: try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(with: .init(x963Representation: other.point))
            case .p384: try P384.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(with: .init(x963Representation: other.point))
            case .p521: try P521.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(with: .init(x963Representation: other.point))
            }
            return secret.withUnsafeBytes { Data($0) }
        }
    }

    /// A key-exchange algorithm as SecKey.h declares it.
    struct Algorithm: Sendable, CustomTestStringConvertible {
        let algorithm: SecKeyAlgorithm
        let identifier: String
        /// The KDF's hash: nil for the raw secret.
        let hash: HandDigest?
        var testDescription: String { identifier }
    }

    static let algorithms: [Algorithm] = [
        Algorithm(algorithm: .ecdhKeyExchangeStandard, identifier: "algid:keyexchange:ECDH", hash: nil),
        Algorithm(algorithm: .ecdhKeyExchangeStandardX963SHA1, identifier: "algid:keyexchange:ECDH:KDFX963:SHA1", hash: .sha1),
        Algorithm(algorithm: .ecdhKeyExchangeStandardX963SHA224, identifier: "algid:keyexchange:ECDH:KDFX963:SHA224", hash: .sha224),
        Algorithm(algorithm: .ecdhKeyExchangeStandardX963SHA256, identifier: "algid:keyexchange:ECDH:KDFX963:SHA256", hash: .sha256),
        Algorithm(algorithm: .ecdhKeyExchangeStandardX963SHA384, identifier: "algid:keyexchange:ECDH:KDFX963:SHA384", hash: .sha384),
        Algorithm(algorithm: .ecdhKeyExchangeStandardX963SHA512, identifier: "algid:keyexchange:ECDH:KDFX963:SHA512", hash: .sha512),
        Algorithm(algorithm: .ecdhKeyExchangeCofactor, identifier: "algid:keyexchange:ECDHC", hash: nil),
        Algorithm(algorithm: .ecdhKeyExchangeCofactorX963SHA1, identifier: "algid:keyexchange:ECDHC:KDFX963:SHA1", hash: .sha1),
        Algorithm(algorithm: .ecdhKeyExchangeCofactorX963SHA224, identifier: "algid:keyexchange:ECDHC:KDFX963:SHA224", hash: .sha224),
        Algorithm(algorithm: .ecdhKeyExchangeCofactorX963SHA256, identifier: "algid:keyexchange:ECDHC:KDFX963:SHA256", hash: .sha256),
        Algorithm(algorithm: .ecdhKeyExchangeCofactorX963SHA384, identifier: "algid:keyexchange:ECDHC:KDFX963:SHA384", hash: .sha384),
        Algorithm(algorithm: .ecdhKeyExchangeCofactorX963SHA512, identifier: "algid:keyexchange:ECDHC:KDFX963:SHA512", hash: .sha512),
    ]

    static let derived = algorithms.filter { $0.hash != nil }

    @Test("SecKey.h: each key-exchange algorithm and parameter has Apple's identifier", arguments: algorithms)
    func identifier(_ algorithm: Algorithm) {
        #expect(algorithm.algorithm.rawValue as String == algorithm.identifier)
        #expect(SecKeyKeyExchangeParameter.requestedSize.rawValue as String == "requestedSize")
        #expect(SecKeyKeyExchangeParameter.sharedInfo.rawValue as String == "sharedInfo")
    }

    @Test("ECDH (standard and cofactor): the raw secret equals `openssl pkeyutl -derive` and is the same from both sides",
          arguments: Curve.allCases)
    func rawSecretMatchesOpenSSL(_ curve: Curve) throws {
        let ours = Pair(curve), theirs = Pair(curve)
        let folder = TestScratch.folder("ecdh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let privatePath = folder.appendingPathComponent("private.pem"), peerPath = folder.appendingPathComponent("peer.pem")
        let secretPath = folder.appendingPathComponent("secret.bin")
        try ours.privatePEM.write(to: privatePath, atomically: true, encoding: .utf8)
        try theirs.publicPEM.write(to: peerPath, atomically: true, encoding: .utf8)
        let process = try SpawnedProcess("/usr/bin/openssl", ["pkeyutl", "-derive", "-inkey", privatePath.path,
                                                              "-peerkey", peerPath.path, "-out", secretPath.path],
                                         environment: [:], stdin: .open("/dev/null", 0), stdout: .open("/dev/null", 1),
                                         stderr: .open("/dev/null", 1))
        try #require(process.wait().status == 0, "openssl pkeyutl -derive failed")
        let expected = try Data(contentsOf: secretPath)
        #expect(expected.count == curve.coordinateByteCount)

        for algorithm in [SecKeyAlgorithm.ecdhKeyExchangeStandard, .ecdhKeyExchangeCofactor] {
            var error: Unmanaged<CFError>?
            let secret = SecKeyCopyKeyExchangeResult(try ours.privateKey(), algorithm, try theirs.publicKey(),
                                                     [:] as CFDictionary, &error) as Data?
            #expect(error == nil)
            #expect(secret == expected)
            // The other side gets the same secret; parameters are ignored by the raw algorithms.
            let mirrored = SecKeyCopyKeyExchangeResult(try theirs.privateKey(), algorithm, try ours.publicKey(),
                                                       [SecKeyKeyExchangeParameter.requestedSize.rawValue: 7] as CFDictionary, nil) as Data?
            #expect(mirrored == expected)
        }
    }

    @Test("ECDH X9.63: the result equals a KDF written out (hash of Z ‖ counter ‖ sharedInfo) for every size and shared info",
          arguments: derived, Curve.allCases)
    func derivedMatchesHandKDF(_ algorithm: Algorithm, _ curve: Curve) throws {
        let ours = Pair(curve), theirs = Pair(curve)
        let z = try ours.sharedSecret(with: theirs)
        for (size, info) in [(1, nil), (16, Data("context".utf8)), (32, Data()), (150, Data(repeating: 7, count: 40))] as [(Int, Data?)] {
            var parameters: [CFString: Any] = [SecKeyKeyExchangeParameter.requestedSize.rawValue: size]
            parameters[SecKeyKeyExchangeParameter.sharedInfo.rawValue] = info
            var error: Unmanaged<CFError>?
            let result = SecKeyCopyKeyExchangeResult(try ours.privateKey(), algorithm.algorithm, try theirs.publicKey(),
                                                     parameters as CFDictionary, &error) as Data?
            #expect(error == nil)
            let digest = try #require(algorithm.hash)
            #expect(result == digest.x963(z, sharedInfo: info ?? Data(), count: size), "size \(size)")
            // Both sides derive the same key.
            let mirrored = SecKeyCopyKeyExchangeResult(try theirs.privateKey(), algorithm.algorithm, try ours.publicKey(),
                                                       parameters as CFDictionary, nil) as Data?
            #expect(mirrored == result)
        }
    }

    @Test("ECDH errors: a public key first, or an algorithm that is no key exchange, is errSecParam ('algorithm not supported by the key')")
    func unsupportedUses() throws {
        let ours = Pair(.p256), theirs = Pair(.p256)
        #expect(try failure(theirs.publicKey(), .ecdhKeyExchangeStandard, theirs.publicKey()) == errSecParam)
        #expect(try failure(theirs.publicKey(), .ecdhKeyExchangeStandardX963SHA256, ours.publicKey(), [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32]) == errSecParam)
        for other in ["algid:sign:ECDSA:message-X962:SHA256", "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM",
                      "algid:keyexchange:ECDH:KDFX963:SHA256:extra", "algid:keyexchange:DH", ""] {
            #expect(try failure(ours.privateKey(), SecKeyAlgorithm(rawValue: other as CFString), theirs.publicKey(),
                                [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32]) == errSecParam, "\(other)")
        }
    }

    @Test("ECDH errors: the other key must be an elliptic-curve public key (errSecParam); keys of different curves are errSecDecode")
    func wrongOtherKey() throws {
        let p256 = Pair(.p256), p384 = Pair(.p384), p521 = Pair(.p521)
        #expect(try failure(p256.privateKey(), .ecdhKeyExchangeStandard, p384.privateKey()) == errSecParam)
        #expect(try failure(p256.privateKey(), .ecdhKeyExchangeStandard, p256.privateKey()) == errSecParam)
        #expect(try failure(p256.privateKey(), .ecdhKeyExchangeStandard, p384.publicKey()) == errSecDecode)
        #expect(try failure(p521.privateKey(), .ecdhKeyExchangeCofactorX963SHA256, p256.publicKey(), [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32]) == errSecDecode)
    }

    @Test("ECDH X9.63 errors: requestedSize missing, not a whole CFNumber, or out of 1…1 MiB, and sharedInfo not CFData, are errSecParam")
    func badParameters() throws {
        let ours = Pair(.p384), theirs = Pair(.p384)
        let size = SecKeyKeyExchangeParameter.requestedSize.rawValue, info = SecKeyKeyExchangeParameter.sharedInfo.rawValue
        let bad: [[CFString: Any]] = [
            [:], [info: Data("x".utf8)], [size: "32"], [size: true], [size: 2.5], [size: 0], [size: -1],
            [size: Int.min], [size: Int.max], [size: (1 << 20) + 1], [size: 32, info: "text"], [size: 32, info: 5],
        ]
        for parameters in bad {
            var error: Unmanaged<CFError>?
            let result = SecKeyCopyKeyExchangeResult(try ours.privateKey(), .ecdhKeyExchangeStandardX963SHA384, try theirs.publicKey(),
                                                     parameters as CFDictionary, &error)
            #expect(result == nil)
            let reported = try #require(error?.takeRetainedValue(), "\(parameters)")
            #expect(CFErrorGetDomain(reported) as String == NSOSStatusErrorDomain)
            #expect(CFErrorGetCode(reported) == Int(errSecParam), "\(parameters)")
        }
        // The largest size allowed is computed.
        let largest = SecKeyCopyKeyExchangeResult(try ours.privateKey(), .ecdhKeyExchangeStandardX963SHA384, try theirs.publicKey(),
                                                  [size: 1 << 20] as CFDictionary, nil) as Data?
        #expect(largest?.count == 1 << 20)
    }

    @Test("ECDH: a failed call with no error pointer returns nil without crashing")
    func failureWithoutErrorPointer() throws {
        let ours = Pair(.p256)
        #expect(SecKeyCopyKeyExchangeResult(try ours.publicKey(), .ecdhKeyExchangeStandard, try ours.publicKey(), [:] as CFDictionary, nil) == nil)
    }

    // MARK: - Helpers

    /// The status of the error a failing call reports (errSecSuccess if it succeeds).
    private func failure(_ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey,
                         _ parameters: [CFString: Any] = [:]) -> OSStatus {
        var error: Unmanaged<CFError>?
        let result = SecKeyCopyKeyExchangeResult(privateKey, algorithm, publicKey, parameters as CFDictionary, &error)
        guard let reported = error?.takeRetainedValue() else { return errSecSuccess }
        #expect(result == nil)
        #expect(CFErrorGetDomain(reported) as String == NSOSStatusErrorDomain)
        return OSStatus(CFErrorGetCode(reported))
    }
}
