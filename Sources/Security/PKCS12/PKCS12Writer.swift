internal import Crypto
import SwiftASN1

extension PKCS12Archive {
    /// The iteration count of the writer's KDFs and MAC: OpenSSL 3's default
    /// (PKCS12_DEFAULT_ITER), which every reader accepts.
    package static let defaultIterations = 2048

    /// An identity's archive: its key and certificate chain (the identity's certificate
    /// first), the key and that certificate sharing `friendlyName` and `localKeyID`. The
    /// local key ID defaults to the SHA-1 of the certificate, as OpenSSL's export makes it.
    package init(identityKey privateKeyInfo: [UInt8], certificateChain: [[UInt8]], friendlyName: String?,
                 localKeyID: [UInt8]? = nil) throws(PKCS12Failure) {
        guard let leaf = certificateChain.first else { throw .cannotWrite("an identity needs its certificate") }
        let attributes = PKCS12BagAttributes(
            friendlyName: friendlyName, localKeyID: localKeyID ?? Array(Insecure.SHA1.hash(data: leaf)))
        self.init(privateKeys: [PKCS12PrivateKey(privateKeyInfo: privateKeyInfo, attributes: attributes)],
                  certificates: [PKCS12Certificate(der: leaf, attributes: attributes)]
                      + certificateChain.dropFirst().map { PKCS12Certificate(der: $0) })
    }

    /// The archive as a PKCS#12 file, the way `openssl pkcs12 -export` of OpenSSL 3 writes
    /// by default: the certificates in one encryptedData part and the keys in shrouded key
    /// bags of one data part, both under PBES2 (PBKDF2 with HMAC-SHA256, AES-256-CBC), and a
    /// SHA-256 MAC; fresh random salts and IVs each time.
    package func derBytes(passphrase: String, iterations: Int = defaultIterations) throws(PKCS12Failure) -> [UInt8] {
        guard (1...PKCS12Limits.maximumIterations).contains(iterations) else {
            throw .cannotWrite("the iteration count must be 1 to \(PKCS12Limits.maximumIterations)")
        }
        // The first reading is the one OpenSSL writes with (for an empty passphrase, the
        // empty string).
        guard let reading = PKCS12Passphrase.readings(of: passphrase).first else { throw .cannotWrite("no passphrase reading") }
        for key in privateKeys { try Self.checkDER(key.privateKeyInfo, "a private key") }
        for certificate in certificates { try Self.checkDER(certificate.der, "a certificate") }

        let certificateBags = try certificates.map { certificate throws(PKCS12Failure) in
            let certBag = PKCS12CertBag(
                certificateType: PKCS12ObjectIdentifiers.x509Certificate,
                value: try Self.any(ASN1OctetString(contentBytes: certificate.der[...]), "a certificate"))
            return PKCS12SafeBag(bagID: PKCS12ObjectIdentifiers.certBag, value: try Self.any(certBag, "a certificate bag"),
                                 attributes: certificate.attributes)
        }
        let keyBags = try privateKeys.map { key throws(PKCS12Failure) in
            let (algorithm, ciphertext) = try PKCS12Encryption.encryptPBES2(key.privateKeyInfo, passphrase: reading,
                                                                             iterations: iterations)
            let shrouded = PKCS12EncryptedPrivateKeyInfo(encryptionAlgorithm: algorithm, encryptedData: ciphertext)
            return PKCS12SafeBag(bagID: PKCS12ObjectIdentifiers.shroudedKeyBag, value: try Self.any(shrouded, "a key bag"),
                                 attributes: key.attributes)
        }

        var parts: [PKCS12ContentInfo] = []
        if !certificateBags.isEmpty {
            let contents = try PKCS12DER.serializing("the certificates") { try $0.serializeSequenceOf(certificateBags) }
            let (algorithm, ciphertext) = try PKCS12Encryption.encryptPBES2(contents, passphrase: reading, iterations: iterations)
            let encrypted = PKCS12EncryptedData(contentType: PKCS12ObjectIdentifiers.data, encryptionAlgorithm: algorithm,
                                                encryptedContent: ciphertext)
            parts.append(PKCS12ContentInfo(contentType: PKCS12ObjectIdentifiers.encryptedData,
                                           content: try Self.any(encrypted, "the encrypted certificates")))
        }
        if !keyBags.isEmpty {
            let contents = try PKCS12DER.serializing("the keys") { try $0.serializeSequenceOf(keyBags) }
            parts.append(try PKCS12DER.decoding("the keys") { try PKCS12ContentInfo(data: contents) })
        }
        let authenticatedSafe = try PKCS12DER.serializing("the authenticated safe") { try $0.serializeSequenceOf(parts) }

        let salt = PKCS12Random.bytes(16)
        let digest = PKCS12DigestAlgorithm.sha256
        let macData = PKCS12MacData(
            digestAlgorithm: PKCS12AlgorithmIdentifier(algorithm: digest.identifier,
                                                       parameters: try Self.any(ASN1Null(), "the MAC's digest")),
            digest: digest.mac(of: authenticatedSafe, passphrase: reading.bmpBytes, salt: salt, iterations: iterations),
            salt: salt, iterations: iterations)
        let authSafe = try PKCS12DER.decoding("the authenticated safe") { try PKCS12ContentInfo(data: authenticatedSafe) }
        return try PKCS12DER.serializing("the PFX") { try $0.serialize(PKCS12PFX(authSafe: authSafe, macData: macData)) }
    }

    private static func any<Value: DERSerializable>(_ value: Value, _ what: String) throws(PKCS12Failure) -> ASN1Any {
        do {
            return try ASN1Any(erasing: value)
        } catch {
            throw .cannotWrite("\(what) cannot be encoded")
        }
    }

    /// One DER SEQUENCE, so that what is written is what a reader can parse.
    private static func checkDER(_ bytes: [UInt8], _ what: String) throws(PKCS12Failure) {
        do {
            _ = try DER.sequence(DER.parse(bytes), identifier: .sequence) { nodes in while nodes.next() != nil {} }
        } catch {
            throw .cannotWrite("\(what) is not one DER SEQUENCE")
        }
    }
}
