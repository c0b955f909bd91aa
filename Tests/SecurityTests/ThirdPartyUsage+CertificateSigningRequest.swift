import Crypto
import Foundation
import Security
import Testing
import TestSupport

// CertificateSigningRequest (cbaker6/CertificateSigningRequest,
// Sources/CertificateSigningRequest/CertificateSigningRequest.swift and
// CertificateSigningRequestConstants.swift) builds a PKCS #10 request around the public key's
// bits and signs it with SecKeyCreateSignature (checking it with SecKeyVerifySignature when
// given the public key), its algorithm a SecKeyAlgorithm chosen by key type and digest. Its
// README's key pairs come from SecKeyCreateRandomKey with kSecPrivateKeyAttrs and
// kSecPublicKeyAttrs, both permanent under tags, the public key's bits read back with
// SecItemCopyMatching and kSecReturnData. The functions below make those calls in its shape,
// written here from reading it; the DER is a small encoder of this file's own. It needs no
// CommonCrypto.

enum CertificateSigningRequestStyle {
    enum KeyAlgorithm {
        case rsa, ec

        var secKeyAttrType: CFString { self == .rsa ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom }
        var signatureAlgorithm: SecKeyAlgorithm { self == .rsa ? .rsaSignatureMessagePKCS1v15SHA256 : .ecdsaSignatureMessageX962SHA256 }

        /// AlgorithmIdentifier of the public key: rsaEncryption with NULL, or id-ecPublicKey
        /// on prime256v1.
        var publicKeyAlgorithm: [UInt8] {
            switch self {
            case .rsa: DER.sequence([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00])
            case .ec: DER.sequence([0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                                    0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07])
            }
        }

        /// AlgorithmIdentifier of the signature: sha256WithRSAEncryption or ecdsa-with-SHA256.
        var signatureAlgorithmIdentifier: [UInt8] {
            switch self {
            case .rsa: DER.sequence([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B, 0x05, 0x00])
            case .ec: DER.sequence([0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02])
            }
        }
    }

    /// Just enough DER for a certification request.
    enum DER {
        static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
            let count = content.count
            let length: [UInt8] = count < 0x80 ? [UInt8(count)]
                : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
            return [tag] + length + content
        }

        static func sequence(_ content: [UInt8]) -> [UInt8] { element(0x30, content) }
        static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(0x03, [0x00] + bytes) }
    }

    /// The README's key pair: both halves permanent under their tags; the public key's bits
    /// read back from the keychain with kSecReturnData.
    static func generatePair(_ algorithm: KeyAlgorithm, bits: Int, tag: String) throws -> (privateKey: SecKey, publicKey: SecKey, publicKeyBits: Data) {
        let publicTag = Data((tag + ".public").utf8)
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: algorithm.secKeyAttrType,
            kSecAttrKeySizeInBits as String: bits,
            kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true,
                                            kSecAttrApplicationTag as String: Data((tag + ".private").utf8)],
            kSecPublicKeyAttrs as String: [kSecAttrIsPermanent as String: true,
                                           kSecAttrApplicationTag as String: publicTag],
        ]
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
            throw error.map { $0.takeRetainedValue() as Error } ?? CocoaError(.featureUnsupported)
        }
        guard let publicKey = SecKeyCopyPublicKey(privateKey) else { throw CocoaError(.featureUnsupported) }
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: publicTag,
            kSecAttrKeyType as String: algorithm.secKeyAttrType,
            kSecReturnData as String: true,
        ]
        var publicKeyBits: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &publicKeyBits)
        guard status == errSecSuccess, let bits = publicKeyBits as? Data else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
        }
        return (privateKey, publicKey, bits)
    }

    /// CertificateSigningRequest.build: the request info signed with SecKeyCreateSignature,
    /// checked with SecKeyVerifySignature when the public key is given, the signature put
    /// into a BIT STRING. nil on failure, as there.
    static func build(commonName: String, publicKeyBits: Data, privateKey: SecKey, publicKey: SecKey?,
                      algorithm: KeyAlgorithm) -> Data? {
        let name = DER.sequence(DER.element(0x31, DER.sequence([0x06, 0x03, 0x55, 0x04, 0x03] + DER.element(0x0C, Array(commonName.utf8)))))
        let publicKeyInfo = DER.sequence(algorithm.publicKeyAlgorithm + DER.bitString(Array(publicKeyBits)))
        let certificationRequestInfo = Data(DER.sequence([0x02, 0x01, 0x00] + name + publicKeyInfo + [0xA0, 0x00]))

        var error: Unmanaged<CFError>?
        guard let signatureData = SecKeyCreateSignature(privateKey, algorithm.signatureAlgorithm,
                                                        certificationRequestInfo as CFData, &error) as Data? else {
            _ = error?.takeRetainedValue()
            return nil
        }
        if let publicKey {
            if !SecKeyVerifySignature(publicKey, algorithm.signatureAlgorithm, certificationRequestInfo as CFData,
                                      signatureData as CFData, &error) {
                _ = error?.takeRetainedValue()
                return nil
            }
        }
        return Data(DER.sequence(Array(certificationRequestInfo) + algorithm.signatureAlgorithmIdentifier
            + DER.bitString(Array(signatureData))))
    }

    /// buildCSRAndReturnString: base64 in lines of 64 between PEM markers.
    static func pem(_ der: Data) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE REQUEST-----\n\(base64)\n-----END CERTIFICATE REQUEST-----\n"
    }
}

/// CertificateSigningRequest's calls run against this module; `openssl req -verify` checks
/// the request's self-signature, and reads its subject and key.
@Suite("Third-party usage: CertificateSigningRequest")
struct CertificateSigningRequestUsageTests {
    // Standard (RFC 2986, section 4.2; Apple's SecKeyCreateSignature): the request's signature over its
    // CertificationRequestInfo verifies under the public key it carries, which is the public
    // key the keychain stored; a changed signature does not verify.
    // Its own tests make RSA keys of 512, 1024 and 2048 bits, as Apple does.
    @Test("CertificateSigningRequest.swift: EC and RSA requests signed by SecKey pass `openssl req -verify`; a tampered one fails",
          arguments: [(CertificateSigningRequestStyle.KeyAlgorithm.ec, 256), (.rsa, 512), (.rsa, 1024), (.rsa, 2048)])
    func requestVerifiesWithOpenSSL(algorithm: CertificateSigningRequestStyle.KeyAlgorithm, bits: Int) throws {
        let keychain = PrivateKeychain()
        try keychain.run {
            let pair = try CertificateSigningRequestStyle.generatePair(algorithm, bits: bits, tag: "com.example.csr")
            // The stored public key is the generated one.
            #expect(pair.publicKeyBits == (try SecKeyCalls.external(pair.publicKey)))
            let request = try #require(CertificateSigningRequestStyle.build(
                commonName: "csr.example.com", publicKeyBits: pair.publicKeyBits, privateKey: pair.privateKey,
                publicKey: pair.publicKey, algorithm: algorithm))

            let folder = try OpenSSLFolder()
            try folder.write(Data(CertificateSigningRequestStyle.pem(request).utf8), "request.pem")
            #expect(try Self.opensslVerdict(folder, "request.pem") == "Certificate request self-signature verify OK")
            let subject = try folder.require(["req", "-in", folder.path("request.pem"), "-noout", "-subject"])
            #expect(subject.contains("CN") && subject.contains("csr.example.com"))
            let publicKeyPEM = try folder.require(["req", "-in", folder.path("request.pem"), "-noout", "-pubkey"])
            let base64 = publicKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let spki = try #require(Data(base64Encoded: base64))
            #expect(spki.suffix(pair.publicKeyBits.count) == pair.publicKeyBits)

            var tampered = request
            tampered[tampered.count - 3] ^= 1
            try folder.write(Data(CertificateSigningRequestStyle.pem(tampered).utf8), "tampered.pem")
            #expect(try Self.opensslVerdict(folder, "tampered.pem") == "Certificate request self-signature verify failure")
        }
    }

    /// What `openssl req -verify` says of a request: OpenSSL 3.0 exits 0 either way and
    /// prints its verdict on standard error.
    static func opensslVerdict(_ folder: OpenSSLFolder, _ name: String) throws -> String {
        let process = try SpawnedProcess("/usr/bin/openssl", ["req", "-in", folder.path(name), "-verify", "-noout"],
                                         environment: [:], stdin: .open("/dev/null", O_RDONLY), stdout: .open("/dev/null", O_WRONLY),
                                         stderr: .open(folder.path("verdict"), O_WRONLY | O_CREAT | O_TRUNC))
        process.wait()
        let verdict = String(decoding: try folder.read("verdict"), as: UTF8.self)
        return verdict.split(separator: "\n").first.map(String.init) ?? ""
    }
}
