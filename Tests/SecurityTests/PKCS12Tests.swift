import Crypto
import Foundation
import LegacyCiphers
@testable import Security
import SwiftASN1
import Testing
import TestSupport

/// PKCS#12 reading and writing (RFC 7292), checked against the `openssl` command: files it
/// exports in every form it offers are read to the keys `openssl pkcs8` and the certificates
/// `openssl x509` give, and files this writer makes are read by `openssl pkcs12`.
@Suite("PKCS#12")
struct PKCS12Tests {
    // MARK: openssl

    /// Runs `openssl` to its end; its exit status, standard output and errors.
    @discardableResult
    static func openssl(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String, errors: String) {
        try SpawnedProcess.runToEnd("/usr/bin/openssl", arguments, environment: [:], outputIn: folder)
    }

    static func requireOpenssl(_ arguments: [String], in folder: URL) throws -> String {
        let result = try openssl(arguments, in: folder)
        try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.errors)")
        return result.output
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// An identity made by openssl: a CA (P-256) that signs a leaf whose key is of `keyType`,
    /// with the DER openssl gives for the leaf's key (PKCS#8) and both certificates.
    struct Identity {
        let folder: URL
        let keyType: KeyType
        var key: URL { folder.appendingPathComponent("leaf.key") }
        var leaf: URL { folder.appendingPathComponent("leaf.pem") }
        var ca: URL { folder.appendingPathComponent("ca.pem") }
        let keyDER: [UInt8]
        let leafDER: [UInt8]
        let caDER: [UInt8]

        init(_ keyType: KeyType) throws {
            self.keyType = keyType
            let folder = TestScratch.folder("pkcs12")
            self.folder = folder
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = { (name: String) in folder.appendingPathComponent(name).path }
            _ = try requireOpenssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                    "-keyout", path("ca.key"), "-subj", "/CN=PKCS12 Test CA", "-days", "2", "-out", path("ca.pem")],
                                   in: folder)
            _ = try requireOpenssl(["genpkey"] + keyType.genpkeyArguments + ["-out", path("leaf.key")], in: folder)
            _ = try requireOpenssl(["req", "-new", "-key", path("leaf.key"), "-subj", "/CN=PKCS12 Leaf", "-out", path("leaf.csr")],
                                   in: folder)
            _ = try requireOpenssl(["x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                                    "-set_serial", "2", "-days", "1", "-out", path("leaf.pem")], in: folder)
            _ = try requireOpenssl(["pkcs8", "-topk8", "-nocrypt", "-in", path("leaf.key"), "-outform", "DER",
                                    "-out", path("leaf.p8")], in: folder)
            _ = try requireOpenssl(["x509", "-in", path("leaf.pem"), "-outform", "DER", "-out", path("leaf.der")], in: folder)
            _ = try requireOpenssl(["x509", "-in", path("ca.pem"), "-outform", "DER", "-out", path("ca.der")], in: folder)
            keyDER = try PKCS12Tests.bytes(folder.appendingPathComponent("leaf.p8"))
            leafDER = try PKCS12Tests.bytes(folder.appendingPathComponent("leaf.der"))
            caDER = try PKCS12Tests.bytes(folder.appendingPathComponent("ca.der"))
        }

        /// `openssl pkcs12 -export` of the leaf's key, the leaf and the CA, with `options`.
        func export(passphrase: String, name: String = "Leaf Ünïcode", options: [String] = []) throws -> [UInt8] {
            let out = folder.appendingPathComponent("\(UUID().uuidString).p12")
            _ = try requireOpenssl(["pkcs12", "-export", "-inkey", key.path, "-in", leaf.path, "-certfile", ca.path,
                                    "-name", name, "-passout", "pass:\(passphrase)", "-out", out.path] + options, in: folder)
            return try PKCS12Tests.bytes(out)
        }
    }

    enum KeyType: String, CaseIterable, CustomTestStringConvertible {
        case p256 = "EC P-256", p384 = "EC P-384", rsa2048 = "RSA-2048"
        var genpkeyArguments: [String] {
            switch self {
            case .p256: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
            case .p384: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]
            case .rsa2048: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
            }
        }
        var testDescription: String { rawValue }
    }

    /// What openssl gave for the identity: one key (its PKCS#8 DER) and two certificates, the
    /// key and the leaf sharing the friendly name and a local key ID.
    static func expectIdentity(_ archive: PKCS12Archive, _ identity: Identity, name: String = "Leaf Ünïcode",
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(archive.privateKeys.map(\.privateKeyInfo) == [identity.keyDER], sourceLocation: sourceLocation)
        #expect(Set(archive.certificates.map(\.der)) == [identity.leafDER, identity.caDER], sourceLocation: sourceLocation)
        #expect(archive.certificates.count == 2, sourceLocation: sourceLocation)
        let leaf = archive.certificates.first { $0.der == identity.leafDER }
        #expect(leaf?.attributes.friendlyName == name, sourceLocation: sourceLocation)
        #expect(archive.privateKeys.first?.attributes.friendlyName == name, sourceLocation: sourceLocation)
        let keyID = archive.privateKeys.first?.attributes.localKeyID
        #expect(keyID != nil && keyID?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(leaf?.attributes.localKeyID == keyID, sourceLocation: sourceLocation)
    }

    // MARK: Reading what openssl writes

    /// The forms `openssl pkcs12 -export` writes: OpenSSL 3's default (PBES2, PBKDF2-SHA256,
    /// AES-256-CBC, SHA-256 MAC), `-legacy` (certificates under 40-bit RC2, the key under
    /// 3-key 3DES, SHA-1 MAC, as older tools and Apple write), and the other PBEs and MACs.
    static let exportForms: [(String, [String])] = [
        ("OpenSSL 3 default", []),
        ("legacy: RC2-40 certificates, 3DES key, SHA-1 MAC", ["-legacy"]),
        ("PBES2 AES-128-CBC", ["-keypbe", "AES-128-CBC", "-certpbe", "AES-128-CBC"]),
        ("PBES2 AES-192-CBC, PBKDF2-SHA512", ["-keypbe", "AES-192-CBC", "-certpbe", "AES-192-CBC", "-macalg", "sha512"]),
        ("PKCS#12 PBE-SHA1-3DES", ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES"]),
        ("PKCS#12 PBE-SHA1-2DES and RC2-128", ["-keypbe", "PBE-SHA1-2DES", "-certpbe", "PBE-SHA1-RC2-128",
                                              "-provider", "legacy", "-provider", "default"]),
        ("PBES2 DES-EDE3-CBC", ["-keypbe", "DES-EDE3-CBC", "-certpbe", "DES-EDE3-CBC"]),
        ("SHA-384 MAC, 10,000 iterations", ["-macalg", "sha384", "-iter", "10000"]),
        ("SHA-1 MAC", ["-macalg", "sha1"]),
        ("SHA-224 MAC (the module's own SHA-224)", ["-macalg", "sha224"]),
        ("certificates and key not encrypted", ["-certpbe", "NONE", "-keypbe", "NONE"]),
        ("no MAC", ["-nomac"]),
    ]

    @Test("Every form openssl exports reads to the key and certificates openssl gives, with their attributes (RFC 7292)",
          arguments: exportForms.indices)
    func readsEveryOpensslExportForm(form: Int) throws {
        let (_, options) = Self.exportForms[form]
        let identity = try Identity(.p256)
        let file = try identity.export(passphrase: "correct horse", options: options)
        Self.expectIdentity(try PKCS12Archive(derBytes: file, passphrase: "correct horse"), identity)
    }

    @Test("EC P-256, EC P-384 and RSA-2048 keys read as openssl's PKCS#8 DER, default and legacy forms",
          arguments: KeyType.allCases, [[], ["-legacy"]])
    func readsEachKeyType(keyType: KeyType, options: [String]) throws {
        let identity = try Identity(keyType)
        let file = try identity.export(passphrase: "s3cret", options: options)
        Self.expectIdentity(try PKCS12Archive(derBytes: file, passphrase: "s3cret"), identity)
    }

    @Test("A wrong passphrase is the wrong-passphrase failure (errSecAuthFailed), with a MAC or without one")
    func wrongPassphraseIsAuthFailed() throws {
        let identity = try Identity(.p256)
        for options in [[], ["-legacy"], ["-nomac"], ["-nomac", "-legacy"]] {
            let file = try identity.export(passphrase: "right", options: options)
            #expect(throws: PKCS12Failure.wrongPassphrase, "\(options)") {
                try PKCS12Archive(derBytes: file, passphrase: "wrong")
            }
        }
        #expect(PKCS12Failure.wrongPassphrase.status == errSecAuthFailed)
        #expect(PKCS12Failure.malformed("x").status == errSecDecode)
        #expect(PKCS12Failure.unsupported("x").status == errSecDecode)
    }

    @Test("An empty passphrase reads as OpenSSL writes it, and a non-ASCII one is UTF-8 for PBKDF2 and BMPString for the MAC")
    func emptyAndNonASCIIPassphrases() throws {
        let identity = try Identity(.p256)
        for options in [[], ["-legacy"]] {
            Self.expectIdentity(try PKCS12Archive(derBytes: try identity.export(passphrase: "", options: options),
                                                  passphrase: ""), identity)
            let unicode = "pässwörd ✓ 🔑"
            Self.expectIdentity(try PKCS12Archive(derBytes: try identity.export(passphrase: unicode, options: options),
                                                  passphrase: unicode), identity)
        }
    }

    // MARK: BER

    /// `node` in BER as Apple's and other exports write it: every constructed node with an
    /// indefinite length, every OCTET STRING longer than 64 bytes cut into a constructed one of
    /// 64-byte pieces. With `intoData`, the content of each `data` ContentInfo (an
    /// authenticated safe or safe contents) is rewritten the same way, which changes the bytes a
    /// MAC covers; without, the MAC still verifies.
    static func ber(_ node: ASN1Node, intoData: Bool) throws -> [UInt8] {
        let tag = try #require(node.encodedBytes.first)
        switch node.content {
        case .primitive(let content):
            guard node.identifier == .octetString, content.count > 64 else { return Array(node.encodedBytes) }
            var pieces: [UInt8] = [0x24, 0x80]
            for start in stride(from: content.startIndex, to: content.endIndex, by: 64) {
                var piece = DER.Serializer()
                piece.appendPrimitiveNode(identifier: .octetString) {
                    $0.append(contentsOf: content[start..<min(start + 64, content.endIndex)])
                }
                pieces += piece.serializedBytes
            }
            return pieces + [0, 0]
        case .constructed(let children):
            let children = Array(children)
            var encoded: [UInt8] = [tag, 0x80]
            let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
            let isData = children.count == 2 && (try? ASN1ObjectIdentifier(derEncoded: children[0])) == data
            for (index, child) in children.enumerated() {
                if intoData, isData, index == 1, case .constructed(let wrapped) = child.content,
                   let octets = Array(wrapped).first, case .primitive(let content) = octets.content {
                    // [0] { OCTET STRING { BER of the content } }
                    let innerBER = try ber(DER.parse(content), intoData: true)
                    var inner = DER.Serializer()
                    inner.appendPrimitiveNode(identifier: .octetString) { $0.append(contentsOf: innerBER) }
                    encoded += [try #require(child.encodedBytes.first), 0x80] + (try ber(DER.parse(inner.serializedBytes), intoData: false)) + [0, 0]
                } else {
                    encoded += try ber(child, intoData: intoData)
                }
            }
            return encoded + [0, 0]
        }
    }

    @Test("BER files (indefinite lengths, OCTET STRINGs in pieces, as Apple's export writes) read as their DER originals")
    func readsBERFiles() throws {
        let identity = try Identity(.p256)
        // The outer layers in BER, the MAC unchanged.
        for options in [[], ["-legacy"]] {
            let file = try identity.export(passphrase: "pw", options: options)
            let berFile = try Self.ber(DER.parse(file), intoData: false)
            #expect(berFile != file && (try? DER.parse(berFile)) == nil)
            Self.expectIdentity(try PKCS12Archive(derBytes: berFile, passphrase: "pw"), identity)
        }
        // Every layer in BER, in a file without a MAC or encryption.
        let plain = try identity.export(passphrase: "pw", options: ["-nomac", "-certpbe", "NONE", "-keypbe", "NONE"])
        let berPlain = try Self.ber(DER.parse(plain), intoData: true)
        Self.expectIdentity(try PKCS12Archive(derBytes: berPlain, passphrase: "pw"), identity)
    }

    // MARK: Damaged and hostile files

    @Test("Truncated files are malformed (errSecDecode); bit-flipped files with a MAC fail or read the same; none crashes")
    func damagedFilesNeverCrashNorGiveWrongSecrets() throws {
        let identity = try Identity(.p256)
        for options in [[], ["-legacy"], ["-nomac"]] {
            let file = try identity.export(passphrase: "pw", options: options)
            let original = try PKCS12Archive(derBytes: file, passphrase: "pw")
            for length in stride(from: 0, to: file.count, by: 97) {
                #expect(throws: PKCS12Failure.self) { try PKCS12Archive(derBytes: Array(file.prefix(length)), passphrase: "pw") }
                do {
                    _ = try PKCS12Archive(derBytes: Array(file.prefix(length)), passphrase: "pw")
                } catch {
                    guard case .malformed = error else { Issue.record("truncated to \(length): \(error)"); continue }
                }
            }
            for position in stride(from: 0, to: file.count, by: 53) {
                var damaged = file
                damaged[position] ^= 1 << UInt8(position % 8)
                do {
                    let read = try PKCS12Archive(derBytes: damaged, passphrase: "pw")
                    // With a MAC, nothing but the original can be read. Without one the file has
                    // no integrity (a flipped IV bit flips the key's first block): never a crash.
                    if options != ["-nomac"] { #expect(read == original, "flip at \(position)") }
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
        }
    }

    /// A PFX without a MAC whose authenticated safe holds `parts`.
    static func pfxWithoutMAC(_ parts: [PKCS12ContentInfo], authSafeType: ASN1ObjectIdentifier = PKCS12ObjectIdentifiers.data)
        throws -> [UInt8] {
        var safe = DER.Serializer()
        try safe.serializeSequenceOf(parts)
        var authSafe = try PKCS12ContentInfo(data: safe.serializedBytes)
        authSafe.contentType = authSafeType
        var pfx = DER.Serializer()
        try pfx.serialize(PKCS12PFX(authSafe: authSafe, macData: nil))
        return pfx.serializedBytes
    }

    @Test("Well-formed files with algorithms or modes not implemented are unsupported (errSecDecode, as Apple's), named in the message")
    func unsupportedAlgorithmsAndModesAreNamed() throws {
        let salt = try ASN1Any(erasing: ASN1OctetString(contentBytes: [1, 2, 3, 4, 5, 6, 7, 8]))
        func encryptedPart(_ algorithm: ASN1ObjectIdentifier, parameters: ASN1Any?) throws -> PKCS12ContentInfo {
            let encrypted = PKCS12EncryptedData(
                contentType: PKCS12ObjectIdentifiers.data,
                encryptionAlgorithm: PKCS12AlgorithmIdentifier(algorithm: algorithm, parameters: parameters),
                encryptedContent: [UInt8](repeating: 0xAB, count: 32))
            return PKCS12ContentInfo(contentType: PKCS12ObjectIdentifiers.encryptedData, content: try ASN1Any(erasing: encrypted))
        }
        let rc4 = try Self.pfxWithoutMAC([encryptedPart(PKCS12ObjectIdentifiers.pbeWithSHAAnd128BitRC4, parameters: salt)])
        #expect(throws: PKCS12Failure.unsupported("encryption with RC4 (pbeWithSHAAnd128BitRC4, pbeWithSHAAnd40BitRC4)")) {
            try PKCS12Archive(derBytes: rc4, passphrase: "pw")
        }
        let unknown = try Self.pfxWithoutMAC([encryptedPart([1, 2, 3, 4], parameters: nil)])
        #expect(throws: PKCS12Failure.unsupported("the encryption algorithm 1.2.3.4")) {
            try PKCS12Archive(derBytes: unknown, passphrase: "pw")
        }
        let enveloped = try Self.pfxWithoutMAC([PKCS12ContentInfo(contentType: PKCS12ObjectIdentifiers.envelopedData,
                                                                  content: try ASN1Any(erasing: ASN1Null()))])
        #expect(throws: PKCS12Failure.unsupported("public-key privacy mode (an envelopedData part)")) {
            try PKCS12Archive(derBytes: enveloped, passphrase: "pw")
        }
        let signed = try Self.pfxWithoutMAC([], authSafeType: PKCS12ObjectIdentifiers.signedData)
        #expect(throws: PKCS12Failure.unsupported("public-key integrity mode (a signedData authenticated safe)")) {
            try PKCS12Archive(derBytes: signed, passphrase: "pw")
        }
        #expect(PKCS12Failure.unsupported("x").status == errSecDecode)
        // An empty authenticated safe without a MAC is a valid, empty file.
        #expect(try PKCS12Archive(derBytes: try Self.pfxWithoutMAC([]), passphrase: "any") == PKCS12Archive(privateKeys: [], certificates: []))
    }

    @Test("Iteration counts over the bound are refused before any derivation (errSecParam), as archive KDFs are")
    func absurdIterationCountsAreRefused() throws {
        let identity = try Identity(.p256)
        let archive = try PKCS12Archive(identityKey: identity.keyDER, certificateChain: [identity.leafDER],
                                        friendlyName: nil)
        // The writer's file with its MAC's iteration count raised to 2^31 - 1.
        var pfx = try PKCS12PFX(derEncoded: try archive.derBytes(passphrase: "pw")[...])
        pfx.macData?.iterations = Int(Int32.max)
        var serializer = DER.Serializer()
        try serializer.serialize(pfx)
        #expect(throws: PKCS12Failure.exceedsBound(
            "the MAC asks for 2147483647 iterations, more than \(PKCS12Limits.maximumIterations)")) {
            try PKCS12Archive(derBytes: serializer.serializedBytes, passphrase: "pw")
        }
        #expect(PKCS12Failure.exceedsBound("x").status == errSecParam)
        #expect(throws: PKCS12Failure.exceedsBound(
            "the file is \(PKCS12Limits.maximumFileSize + 1) bytes, more than \(PKCS12Limits.maximumFileSize)")) {
            try PKCS12Archive(derBytes: [UInt8](repeating: 0x30, count: PKCS12Limits.maximumFileSize + 1), passphrase: "pw")
        }
    }

    // MARK: Writing

    @Test("The writer's file is read by openssl pkcs12 -info: PBES2/PBKDF2-SHA256/AES-256-CBC, SHA-256 MAC, the same key and certificates",
          arguments: [KeyType.p256, .rsa2048])
    func writerOutputIsReadByOpenssl(keyType: KeyType) throws {
        let identity = try Identity(keyType)
        let archive = try PKCS12Archive(identityKey: identity.keyDER, certificateChain: [identity.leafDER, identity.caDER],
                                        friendlyName: "Exported Identity")
        let file = try archive.derBytes(passphrase: "export pass")
        let out = identity.folder.appendingPathComponent("ours.p12")
        try Data(file).write(to: out)

        let info = try Self.openssl(["pkcs12", "-info", "-nodes", "-in", out.path, "-passin", "pass:export pass"],
                                    in: identity.folder)
        try #require(info.status == 0, "\(info.errors)")
        #expect(info.errors.contains("MAC: sha256, Iteration 2048"), "\(info.errors)")
        #expect(info.errors.contains("PBES2, PBKDF2, AES-256-CBC, Iteration 2048, PRF hmacWithSHA256"), "\(info.errors)")
        // (OpenSSL 3.0 prints a BMPString's other characters as Latin-1, so the name is ASCII here;
        // the tests above read openssl's non-ASCII names.)
        #expect(info.output.contains("friendlyName: Exported Identity"), "\(info.output)")

        let certificates = try Self.openssl(["pkcs12", "-in", out.path, "-nokeys", "-passin", "pass:export pass"],
                                            in: identity.folder)
        try #require(certificates.status == 0, "\(certificates.errors)")
        let pems = try PEMDocument.parseMultiple(pemString: certificates.output)
        #expect(pems.map { Array($0.derBytes) } == [identity.leafDER, identity.caDER])

        let keys = try Self.openssl(["pkcs12", "-in", out.path, "-nocerts", "-nodes", "-passin", "pass:export pass"],
                                    in: identity.folder)
        try #require(keys.status == 0, "\(keys.errors)")
        #expect(try PEMDocument.parseMultiple(pemString: keys.output).map { Array($0.derBytes) } == [identity.keyDER])

        // And by this reader, to the same archive; a wrong passphrase fails its MAC.
        #expect(try PKCS12Archive(derBytes: file, passphrase: "export pass") == archive)
        #expect(throws: PKCS12Failure.wrongPassphrase) { try PKCS12Archive(derBytes: file, passphrase: "export pas") }
    }

    @Test("Each export has fresh salts and IVs; the local key ID defaults to the certificate's SHA-1, as OpenSSL's; no key bytes in descriptions")
    func writerUsesFreshRandomnessAndOpensslsKeyID() throws {
        let identity = try Identity(.p256)
        let archive = try PKCS12Archive(identityKey: identity.keyDER, certificateChain: [identity.leafDER], friendlyName: "x")
        let first = try archive.derBytes(passphrase: "pw"), second = try archive.derBytes(passphrase: "pw")
        #expect(first != second)
        #expect(try PKCS12Archive(derBytes: first, passphrase: "pw") == PKCS12Archive(derBytes: second, passphrase: "pw"))
        let opensslFile = try identity.export(passphrase: "pw", name: "x")
        let opensslKeyID = try PKCS12Archive(derBytes: opensslFile, passphrase: "pw").privateKeys.first?.attributes.localKeyID
        #expect(archive.privateKeys.first?.attributes.localKeyID == opensslKeyID)
        // The key's bytes never show in a description or a dump (secrets stay out of logs).
        // In a P-256 PKCS#8 key the 32-byte private scalar starts at offset 36 (its end is the
        // public key, which the certificate shows too).
        #expect(Array(identity.keyDER[34..<36]) == [0x04, 0x20])
        let secret = Array(identity.keyDER[36..<52])
        let keyBytes = secret.map { String($0) }.joined(separator: ", ")
        var dumped = ""
        dump(archive, to: &dumped)
        for text in [String(describing: archive), String(reflecting: archive), dumped] {
            #expect(!text.contains(keyBytes))
            #expect(!text.contains(Self.hex(secret)))
        }
    }

    @Test("The writer refuses what is not DER rather than writing a file no reader opens")
    func writerRefusesBadInput() {
        #expect(throws: PKCS12Failure.self) {
            try PKCS12Archive(identityKey: [1, 2, 3], certificateChain: [[0x30, 0x00]], friendlyName: nil).derBytes(passphrase: "x")
        }
        #expect(throws: PKCS12Failure.self) {
            try PKCS12Archive(identityKey: [0x30, 0x00], certificateChain: [], friendlyName: nil)
        }
    }

    // MARK: The PKCS#12 KDF and the legacy ciphers

    @Test("The PKCS#12 KDF (RFC 7292 B.2) gives OpenSSL's PKCS12KDF output for each hash, purpose and length",
          arguments: [("SHA1", 1, 24, 1), ("SHA1", 2, 8, 1000), ("SHA1", 3, 20, 2048), ("SHA256", 3, 32, 2048),
                      ("SHA384", 3, 48, 7), ("SHA512", 1, 100, 3)])
    func pkcs12KDFMatchesOpenssl(digest: String, id: Int, length: Int, iterations: Int) throws {
        let folder = TestScratch.folder("pkcs12-kdf")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let salt: [UInt8] = [0x0A, 0x58, 0xCF, 0x64, 0x53, 0x0D, 0x82, 0x3F]
        let output = try Self.requireOpenssl(
            // OpenSSL's PKCS12KDF takes the password as bytes: the BMPString, with its terminator.
            ["kdf", "-keylen", "\(length)", "-kdfopt", "digest:\(digest)", "-kdfopt", "hexpass:0073006d0065006700 00".replacingOccurrences(of: " ", with: ""),
             "-kdfopt", "hexsalt:0A58CF64530D823F", "-kdfopt", "iter:\(iterations)", "-kdfopt", "id:\(id)", "PKCS12KDF"], in: folder)
        let expected = output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":").compactMap { UInt8($0, radix: 16) }
        try #require(expected.count == length)
        let passphrase = try #require(PKCS12Passphrase.readings(of: "smeg").first).bmpBytes
        let purpose = try #require(PKCS12KeyDerivation.Purpose(rawValue: UInt8(id)))
        let derived: [UInt8] = switch digest {
        case "SHA1": PKCS12KeyDerivation.derive(Insecure.SHA1.self, passphrase: passphrase, salt: salt, iterations: iterations,
                                                purpose: purpose, count: length)
        case "SHA256": PKCS12KeyDerivation.derive(SHA256.self, passphrase: passphrase, salt: salt, iterations: iterations,
                                                  purpose: purpose, count: length)
        case "SHA384": PKCS12KeyDerivation.derive(SHA384.self, passphrase: passphrase, salt: salt, iterations: iterations,
                                                  purpose: purpose, count: length)
        default: PKCS12KeyDerivation.derive(SHA512.self, passphrase: passphrase, salt: salt, iterations: iterations,
                                            purpose: purpose, count: length)
        }
        #expect(derived == expected)
    }

    @Test("The PKCS#12 KDF gives the published vector for \"smeg\" (OpenSSL's and Bouncy Castle's test data)")
    func pkcs12KDFKnownAnswer() throws {
        let passphrase = try #require(PKCS12Passphrase.readings(of: "smeg").first).bmpBytes
        #expect(passphrase == [0, 0x73, 0, 0x6D, 0, 0x65, 0, 0x67, 0, 0])
        let key = PKCS12KeyDerivation.derive(Insecure.SHA1.self, passphrase: passphrase,
                                             salt: [0x0A, 0x58, 0xCF, 0x64, 0x53, 0x0D, 0x82, 0x3F], iterations: 1,
                                             purpose: .encryptionKey, count: 24)
        #expect(Self.hex(key) == "8aaae6297b6cb04642ab5b077851284eb7128f1a2a7fbca3")
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    static func unhex(_ string: String) -> [UInt8] {
        stride(from: 0, to: string.count, by: 2).compactMap {
            let start = string.index(string.startIndex, offsetBy: $0)
            return UInt8(string[start..<string.index(start, offsetBy: 2)], radix: 16)
        }
    }

    @Test("DES known answers (FIPS 46 worked example, SP 800-67 style with K1=K2=K3) decrypt and encrypt")
    func tripleDESKnownAnswers() throws {
        // With three equal keys, DES-EDE3 is single DES.
        let key = Self.unhex("133457799BBCDFF1")
        let cipher = try #require(TripleDES(key: key + key + key))
        #expect(cipher.encrypt(block: 0x0123_4567_89AB_CDEF) == 0x85E8_1354_0F0A_B405)
        #expect(cipher.decrypt(block: 0x85E8_1354_0F0A_B405) == 0x0123_4567_89AB_CDEF)
        // An 8-byte key is single DES itself.
        let single = try #require(TripleDES(key: key))
        #expect(single.encrypt(block: 0x0123_4567_89AB_CDEF) == 0x85E8_1354_0F0A_B405)
        // The classic Rivest test: key and plaintext of the DES validation set.
        let second = try #require(TripleDES(key: Self.unhex("0123456789ABCDEF23456789ABCDEF01456789ABCDEF0123")))
        #expect(second.decrypt(block: second.encrypt(block: 0x5468_6520_7175_6663)) == 0x5468_6520_7175_6663)
        #expect(TripleDES(key: [1, 2, 3]) == nil)
        #expect(TripleDES(key: [UInt8](repeating: 1, count: 12)) == nil)
    }

    @Test("RC2 known answers of RFC 2268 section 5", arguments: [
        ("0000000000000000", 63, "0000000000000000", "ebb773f993278eff"),
        ("ffffffffffffffff", 64, "ffffffffffffffff", "278b27e42e2f0d49"),
        ("3000000000000000", 64, "1000000000000001", "30649edf9be7d2c2"),
        ("88", 64, "0000000000000000", "61a8a244adacccf0"),
        ("88bca90e90875a", 64, "0000000000000000", "6ccf4308974c267f"),
        ("88bca90e90875a7f0f79c384627bafb2", 64, "0000000000000000", "1a807d272bbe5db1"),
        ("88bca90e90875a7f0f79c384627bafb2", 128, "0000000000000000", "2269552ab0f85ca6"),
    ])
    func rc2KnownAnswers(key: String, effectiveBits: Int, plaintext: String, ciphertext: String) throws {
        let cipher = try #require(RC2(key: Self.unhex(key), effectiveKeyBits: effectiveBits))
        let block = Self.unhex(ciphertext).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let clear = Self.unhex(plaintext).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(cipher.decrypt(block: block) == clear)
    }

    @Test("3DES-CBC, 2-key 3DES-CBC, RC2-40-CBC and RC2-128-CBC decrypt what openssl enc encrypts, padding removed",
          arguments: [("des-ede3-cbc", 24), ("des-ede-cbc", 16), ("rc2-40-cbc", 5), ("rc2-cbc", 16)])
    func legacyCBCDecryptsOpensslEnc(cipherName: String, keyBytes: Int) throws {
        let folder = TestScratch.folder("pkcs12-enc")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for length in [0, 1, 7, 8, 9, 100] {
            let plaintext = PKCS12Random.bytes(length), key = PKCS12Random.bytes(keyBytes), iv = PKCS12Random.bytes(8)
            let plain = folder.appendingPathComponent("plain"), sealed = folder.appendingPathComponent("sealed")
            try Data(plaintext).write(to: plain)
            _ = try Self.requireOpenssl(["enc", "-\(cipherName)", "-K", Self.hex(key), "-iv", Self.hex(iv), "-in", plain.path,
                                         "-out", sealed.path, "-provider", "legacy", "-provider", "default"], in: folder)
            let ciphertext = try Self.bytes(sealed)
            let padded: [UInt8]?
            if cipherName.hasPrefix("des") {
                let cipher = try #require(TripleDES(key: key))
                padded = LegacyCBC.decrypt(ciphertext, iv: iv, block: cipher.decrypt(block:))
            } else {
                let cipher = try #require(RC2(key: key, effectiveKeyBits: 8 * keyBytes))
                padded = LegacyCBC.decrypt(ciphertext, iv: iv, block: cipher.decrypt(block:))
            }
            #expect(padded.flatMap { CBCPadding.remove(from: $0, blockByteCount: 8) } == plaintext, "\(cipherName), \(length) bytes")
        }
        #expect(LegacyCBC.decrypt([1, 2, 3], iv: [UInt8](repeating: 0, count: 8)) { $0 } == nil)
    }

    @Test("The import constants have Apple's raw values (SecImportExport.h)")
    func importConstantsHaveApplesValues() {
        #expect(kSecImportExportPassphrase as String == "passphrase")
        #expect(kSecImportExportKeychain as String == "keychain")
        #expect(kSecImportExportAccess as String == "access")
        #expect(kSecImportToMemoryOnly as String == "memory")
        #expect(kSecImportItemLabel as String == "label")
        #expect(kSecImportItemKeyID as String == "keyid")
        #expect(kSecImportItemTrust as String == "trust")
        #expect(kSecImportItemCertChain as String == "chain")
        #expect(kSecImportItemIdentity as String == "identity")
    }
}
