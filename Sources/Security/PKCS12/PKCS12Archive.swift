import SwiftASN1
@_implementationOnly import KeychainCore

/// The private keys and certificates of a PKCS#12 file (RFC 7292), with their bag
/// attributes: what `SecPKCS12Import` reads and `security export -f pkcs12` writes.
///
/// Reading verifies the password-integrity MAC first (HMAC with the PKCS#12 KDF over SHA-1,
/// SHA-256, SHA-384 or SHA-512), then decrypts: PBES2 with PBKDF2 and AES-CBC (what
/// OpenSSL 3 writes by default) and PKCS#12's Triple DES and RC2 schemes (what
/// `openssl pkcs12 -legacy`, older tools and Apple write). Files without a MAC are read
/// too; a wrong passphrase then shows as bad padding. BER (indefinite lengths, OCTET STRINGs
/// in pieces, as Apple's export writes) is read as well as DER. Public-key integrity and privacy
/// modes (signedData, envelopedData) are unsupported. Parameters that would cost more than
/// ``PKCS12Limits`` allows are refused before any derivation runs.
package struct PKCS12Archive: Sendable, Equatable {
    package var privateKeys: [PKCS12PrivateKey]
    package var certificates: [PKCS12Certificate]

    package init(privateKeys: [PKCS12PrivateKey], certificates: [PKCS12Certificate]) {
        self.privateKeys = privateKeys
        self.certificates = certificates
    }

    /// Reads a PKCS#12 file (DER or BER) with `passphrase`.
    package init(derBytes: [UInt8], passphrase: String) throws(PKCS12Failure) {
        guard derBytes.count <= PKCS12Limits.maximumFileSize else {
            throw .exceedsBound("the file is \(derBytes.count) bytes, more than \(PKCS12Limits.maximumFileSize)")
        }
        let pfx = try PKCS12DER.decoding("the PFX") { try PKCS12PFX(derEncoded: PKCS12DER.parse(derBytes)) }
        switch pfx.authSafe.contentType {
        case PKCS12ObjectIdentifiers.data: break
        case PKCS12ObjectIdentifiers.signedData:
            throw .unsupported("public-key integrity mode (a signedData authenticated safe)")
        default:
            throw .malformed("the authenticated safe is neither data nor signedData")
        }
        let authenticatedSafe = try pfx.authSafe.dataBytes("the authenticated safe")
        var budget = PKCS12WorkBudget()
        let readings = PKCS12Passphrase.readings(of: passphrase)

        guard let macData = pfx.macData else {
            // No MAC: the first reading of the passphrase that decrypts everything.
            for reading in readings {
                do {
                    self = try Self.read(authenticatedSafe, passphrase: reading, macVerified: false, budget: &budget)
                    return
                } catch .wrongPassphrase {
                    continue
                }
            }
            throw .wrongPassphrase
        }
        let digest = try PKCS12DigestAlgorithm(identifier: macData.digestAlgorithm.algorithm)
        for reading in readings {
            try budget.spend(iterations: macData.iterations, for: "the MAC")
            let expected = digest.mac(of: authenticatedSafe, passphrase: reading.bmpBytes, salt: macData.salt,
                                      iterations: macData.iterations)
            if Self.constantTimeEqual(expected, macData.digest) {
                self = try Self.read(authenticatedSafe, passphrase: reading, macVerified: true, budget: &budget)
                return
            }
        }
        throw .wrongPassphrase
    }

    /// The keys and certificates of the authenticated safe. A part that does not decrypt is
    /// a wrong passphrase when no MAC vouched for the passphrase, and damage when one did.
    private static func read(_ authenticatedSafe: [UInt8], passphrase: PKCS12Passphrase, macVerified: Bool,
                             budget: inout PKCS12WorkBudget) throws(PKCS12Failure) -> PKCS12Archive {
        var reader = BagReader(passphrase: passphrase, macVerified: macVerified, budget: budget)
        // What a failed reading spent counts against the next one too.
        defer { budget = reader.budget }
        let parts = try PKCS12DER.decoding("the authenticated safe") {
            try DER.sequence(of: PKCS12ContentInfo.self, identifier: .sequence, rootNode: PKCS12DER.parse(authenticatedSafe))
        }
        for part in parts {
            switch part.contentType {
            case PKCS12ObjectIdentifiers.data:
                try reader.readSafeContents(try part.dataBytes("a data part of the authenticated safe"), depth: 0)
            case PKCS12ObjectIdentifiers.encryptedData:
                guard let content = part.content else { throw .malformed("an encryptedData part has no content") }
                let encrypted = try PKCS12DER.decoding("an encryptedData part") { try PKCS12EncryptedData(asn1Any: content) }
                guard encrypted.contentType == PKCS12ObjectIdentifiers.data else {
                    throw .malformed("an encryptedData part does not hold data")
                }
                guard let ciphertext = encrypted.encryptedContent else { continue }
                let scheme = try PKCS12Encryption(encrypted.encryptionAlgorithm)
                // May hold plain key bags: cleared once read.
                var contents = try reader.decrypt(ciphertext, scheme, "an encrypted part of the authenticated safe")
                defer { contents.zeroize() }
                try reader.readSafeContents(contents, depth: 0)
            case PKCS12ObjectIdentifiers.envelopedData:
                throw .unsupported("public-key privacy mode (an envelopedData part)")
            default:
                throw .unsupported("a part of the authenticated safe of type \(part.contentType)")
            }
        }
        return PKCS12Archive(privateKeys: reader.keys, certificates: reader.certificates)
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Reads safe contents into keys and certificates, counting bags and nesting.
private struct BagReader {
    let passphrase: PKCS12Passphrase
    let macVerified: Bool
    var budget: PKCS12WorkBudget
    var keys: [PKCS12PrivateKey] = []
    var certificates: [PKCS12Certificate] = []
    var bagCount = 0

    init(passphrase: PKCS12Passphrase, macVerified: Bool, budget: PKCS12WorkBudget) {
        self.passphrase = passphrase
        self.macVerified = macVerified
        self.budget = budget
    }

    /// Decrypted bytes; a failure to decrypt is ``PKCS12Failure/wrongPassphrase`` unless the
    /// MAC verified the passphrase.
    mutating func decrypt(_ ciphertext: [UInt8], _ scheme: PKCS12Encryption, _ what: String) throws(PKCS12Failure) -> [UInt8] {
        guard let plaintext = try scheme.decrypt(ciphertext, passphrase: passphrase, budget: &budget, what) else {
            throw notDecrypted(what)
        }
        return plaintext
    }

    private func notDecrypted(_ what: String) -> PKCS12Failure {
        macVerified ? .malformed("\(what) does not decrypt under the passphrase that verifies the MAC") : .wrongPassphrase
    }

    mutating func readSafeContents(_ bytes: [UInt8], depth: Int) throws(PKCS12Failure) {
        guard depth <= PKCS12Limits.maximumNesting else {
            throw .exceedsBound("safe contents nested more than \(PKCS12Limits.maximumNesting) deep")
        }
        let bags: [PKCS12SafeBag]
        do {
            bags = try DER.sequence(of: PKCS12SafeBag.self, identifier: .sequence, rootNode: PKCS12DER.parse(bytes))
        } catch let failure as PKCS12Failure {
            throw failure
        } catch {
            // Decrypted bytes that are not safe contents: as bad padding, a likely wrong passphrase.
            throw macVerified || depth > 0 ? .malformed("safe contents are not valid DER of the expected structure")
                : .wrongPassphrase
        }
        for bag in bags { try read(bag, depth: depth) }
    }

    private mutating func read(_ bag: PKCS12SafeBag, depth: Int) throws(PKCS12Failure) {
        bagCount += 1
        guard bagCount <= PKCS12Limits.maximumBags else {
            throw .exceedsBound("more than \(PKCS12Limits.maximumBags) bags")
        }
        typealias OID = PKCS12ObjectIdentifiers
        switch bag.bagID {
        case OID.keyBag:
            let key = try PKCS12DER.bytes(of: bag.value, "a key bag")
            try Self.checkPrivateKeyInfo(key[...], "a key bag")
            keys.append(PKCS12PrivateKey(privateKeyInfo: key, attributes: bag.attributes))
        case OID.shroudedKeyBag:
            let info = try PKCS12DER.decoding("a shrouded key bag") { try PKCS12EncryptedPrivateKeyInfo(asn1Any: bag.value) }
            let scheme = try PKCS12Encryption(info.encryptionAlgorithm)
            let key = try decrypt(info.encryptedData, scheme, "a shrouded key bag")
            do {
                try Self.checkPrivateKeyInfo(key[...], "a shrouded key bag")
            } catch {
                throw macVerified ? error : .wrongPassphrase
            }
            keys.append(PKCS12PrivateKey(privateKeyInfo: key, attributes: bag.attributes))
        case OID.certBag:
            let certBag = try PKCS12DER.decoding("a certificate bag") { try PKCS12CertBag(asn1Any: bag.value) }
            // Other certificate types (SDSI) have no use here.
            guard certBag.certificateType == OID.x509Certificate else { return }
            let der = try PKCS12DER.decoding("a certificate bag") { Array(try ASN1OctetString(asn1Any: certBag.value).bytes) }
            _ = try PKCS12DER.decoding("a certificate") {
                try DER.sequence(DER.parse(der), identifier: .sequence) { nodes in while nodes.next() != nil {} }
            }
            certificates.append(PKCS12Certificate(der: der, attributes: bag.attributes))
        case OID.safeContentsBag:
            try readSafeContents(try PKCS12DER.bytes(of: bag.value, "a safe contents bag"), depth: depth + 1)
        default:
            // CRL and secret bags: nothing SecPKCS12Import returns.
            break
        }
    }

    /// A PrivateKeyInfo (RFC 5958): version, algorithm, key; the rest is not looked at.
    private static func checkPrivateKeyInfo(_ bytes: ArraySlice<UInt8>, _ what: String) throws(PKCS12Failure) {
        try PKCS12DER.decoding("the private key of \(what)") {
            try DER.sequence(DER.parse(bytes), identifier: .sequence) { nodes in
                _ = try Int(derEncoded: &nodes)
                _ = try PKCS12AlgorithmIdentifier(derEncoded: &nodes)
                _ = try ASN1OctetString(derEncoded: &nodes)
                while nodes.next() != nil {}
            }
        }
    }
}
