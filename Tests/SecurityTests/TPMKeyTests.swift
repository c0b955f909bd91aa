import Crypto
import Foundation
import KeychainCore
import Security
import Testing
import TestSupport

/// Secure Enclave-style keys held in a TPM 2.0: with `KEYCHAIN_TPM_TCTI` naming a TPM (here a
/// real swtpm on loopback ports), the private key is made in the TPM and never exists outside
/// it; the item keeps only the TPM's blob, which another TPM cannot load. The key operations
/// run in KeychainTestHelper, since the TPM is chosen from the process's environment.
@Suite("Secure Enclave-style keys held in a TPM")
struct TPMKeyTests {
    private static let accessGroup = "com.example.app"

    /// Runs the helper on `keychain` with `KEYCHAIN_TPM_TCTI` set to `tcti`.
    private static func helper(_ arguments: [String], _ keychain: PrivateKeychain, tcti: String) throws -> String {
        try HelperProcess.run(arguments, dataHome: keychain.dataHome, accessGroups: accessGroup,
                              more: ["KEYCHAIN_TPM_TCTI": tcti])
    }

    /// Deletes the test's keychain from this process: its device key, sealed to the TPM by
    /// the helper, was unsealed into the user's kernel keyring, where it would stay until
    /// reboot; deleting the keychain removes it.
    private static func deleteKeychain(_ keychain: PrivateKeychain) {
        try? KeychainStore.delete(KeychainFiles(directory: keychain.directory, name: "login"))
    }

    /// Makes a stored key; where its private part is, and its public key.
    private static func makeKey(_ tag: String, _ keychain: PrivateKeychain,
                                tcti: String) throws -> (place: String, publicKey: P256.Signing.PublicKey) {
        let words = try helper(["make-se-key", tag], keychain, tcti: tcti).split(separator: " ").map(String.init)
        try #require(words.count == 3 && words[0] == "0", "make-se-key said \(words)")
        return (words[1], try P256.Signing.PublicKey(x963Representation: try #require(hexBytes(words[2]))))
    }

    /// Signs `message` with the stored key: the signature, or the failure's status.
    private static func sign(_ tag: String, _ message: String, _ keychain: PrivateKeychain, tcti: String,
                             algorithm: SecKeyAlgorithm = .ecdsaSignatureMessageX962SHA256) throws -> Result<Data, StatusFailure> {
        let words = try helper(["sign-key", tag, message, algorithm.rawValue as String], keychain, tcti: tcti)
            .split(separator: " ").map(String.init)
        if words.count == 2, words[0] == "0", let signature = hexBytes(words[1]) { return .success(signature) }
        if words.count == 3, words[0] == "0", words[1] == "error", let status = OSStatus(words[2]) {
            return .failure(StatusFailure(status: status))
        }
        throw StatusFailure(status: OSStatus(words.first ?? "") ?? 0)
    }

    struct StatusFailure: Error, Equatable { let status: OSStatus }

    private static func hexBytes(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data()
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// The decrypted data of the private key item tagged `tag`, read through the core as the
    /// library stores it.
    private static func storedData(_ tag: String, _ keychain: PrivateKeychain) throws -> Data {
        let store = try KeychainStore.shared(KeychainFiles(directory: keychain.directory, name: "login"), create: false)
        let found = try store.find(ItemQuery(itemClass: .key, attributes: ["atag": .data(Data(tag.utf8)), "kcls": .number(1)],
                                             returning: [.data]),
                                   by: CallerIdentity(accessGroups: [accessGroup]))
        return try #require(found.first?.data)
    }

    private static func verifies(_ signature: Data, _ message: String, _ publicKey: P256.Signing.PublicKey) -> Bool {
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
        return publicKey.isValidSignature(parsed, for: Data(message.utf8))
    }

    @Test("A key made with KEYCHAIN_TPM_TCTI is made in the TPM and signs; swift-crypto's P256 verifies the signature")
    func signsInTheTPM() throws {
        let tpm = try SoftwareTPM()
        let keychain = PrivateKeychain()
        defer { Self.deleteKeychain(keychain) }
        let made = try Self.makeKey("com.example.tpm.sign", keychain, tcti: tpm.tcti)
        #expect(made.place == "tpm")
        let signature = try Self.sign("com.example.tpm.sign", "hello", keychain, tcti: tpm.tcti).get()
        #expect(Self.verifies(signature, "hello", made.publicKey))
        #expect(!Self.verifies(signature, "another message", made.publicKey))
    }

    @Test("ECDSA over digests of every length: SHA-384 and SHA-512 messages (cut to 32 bytes) and a 5-byte digest (padded)")
    func signsDigestsOfAnyLength() throws {
        let tpm = try SoftwareTPM()
        let keychain = PrivateKeychain()
        defer { Self.deleteKeychain(keychain) }
        let made = try Self.makeKey("com.example.tpm.digests", keychain, tcti: tpm.tcti)
        let message = "a message hashed longer than the curve"
        // ECDSA uses the digest's leftmost 256 bits (SEC 1, 4.1.3): swift-crypto checks the
        // TPM's signatures against the whole SHA-384 and SHA-512 digests.
        let sha384 = try Self.sign("com.example.tpm.digests", message, keychain, tcti: tpm.tcti,
                                   algorithm: .ecdsaSignatureMessageX962SHA384).get()
        #expect(try made.publicKey.isValidSignature(.init(derRepresentation: sha384), for: SHA384.hash(data: Data(message.utf8))))
        let sha512 = try Self.sign("com.example.tpm.digests", message, keychain, tcti: tpm.tcti,
                                   algorithm: .ecdsaSignatureMessageX962SHA512).get()
        #expect(try made.publicKey.isValidSignature(.init(derRepresentation: sha512), for: SHA512.hash(data: Data(message.utf8))))
        // A digest shorter than the curve is the same number with leading zeros: the software
        // verifier accepts the TPM's signature of "hello" given as a digest.
        let short = try Self.sign("com.example.tpm.digests", "hello", keychain, tcti: tpm.tcti,
                                  algorithm: .ecdsaSignatureDigestX962).get()
        let publicKey = try #require(SecKeyCreateWithData(made.publicKey.x963Representation as CFData, [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ] as CFDictionary, nil))
        #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962, Data("hello".utf8) as CFData, short as CFData, nil))
        #expect(!SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962, Data("hellp".utf8) as CFData, short as CFData, nil))
    }

    @Test("The stored item holds the TPM's blob: no 32 bytes of it are the private key, and the key cannot be exported")
    func itemHoldsNoPrivateScalar() throws {
        let tpm = try SoftwareTPM()
        let keychain = PrivateKeychain()
        defer { Self.deleteKeychain(keychain) }
        let made = try Self.makeKey("com.example.tpm.item", keychain, tcti: tpm.tcti)
        let data = try Self.storedData("com.example.tpm.item", keychain)
        #expect(data.starts(with: Data("swift-keychain tpm-key 1\n".utf8)))
        // Whatever the layout, no window of the stored bytes is a P-256 scalar whose public key
        // is this key's: the private key is not there in the clear.
        let bytes = [UInt8](data)
        var scalarFound = false
        for start in 0...(bytes.count - 32) {
            if let candidate = try? P256.Signing.PrivateKey(rawRepresentation: bytes[start..<start + 32]),
               candidate.publicKey.x963Representation == made.publicKey.x963Representation {
                scalarFound = true
            }
        }
        #expect(!scalarFound)

        // Found by reference in this process: a private key with no exportable representation.
        let found = keychain.copyMatching([kSecClass as String: kSecClassKey,
                                           kSecAttrApplicationTag as String: Data("com.example.tpm.item".utf8),
                                           kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecReturnRef as String: true])
        let key = try #require(found.result.map { $0 as AnyObject } as? SecKey)
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyExternalRepresentation(key, &error) == nil)
        #expect(error.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecUnimplemented))
        #expect(String(describing: key).contains("held in a TPM"))
        // A TPM key only signs: key exchange is errSecUnimplemented, asking no TPM.
        let peer = P256.KeyAgreement.PrivateKey()
        let peerKey = try #require(SecKeyCreateWithData(peer.publicKey.x963Representation as CFData, [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ] as CFDictionary, nil))
        var exchangeError: Unmanaged<CFError>?
        #expect(SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, peerKey, [:] as CFDictionary, &exchangeError) == nil)
        #expect(exchangeError.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecUnimplemented))
        #expect(!SecKeyIsAlgorithmSupported(key, .decrypt, .eciesEncryptionStandardX963SHA256AESGCM))
        #expect(SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA256))
    }

    @Test("After the TPM restarts on the same state (a reboot), the key still signs")
    func signsAfterRestart() throws {
        let tpm = try SoftwareTPM()
        let keychain = PrivateKeychain()
        defer { Self.deleteKeychain(keychain) }
        let made = try Self.makeKey("com.example.tpm.reboot", keychain, tcti: tpm.tcti)
        tpm.stop()
        try tpm.start()
        let signature = try Self.sign("com.example.tpm.reboot", "after reboot", keychain, tcti: tpm.tcti).get()
        #expect(Self.verifies(signature, "after reboot", made.publicKey))
    }

    @Test("Another TPM (a fresh swtpm state) cannot sign with the key: errSecDecode, never a signature")
    func anotherTPMCannotSign() throws {
        let tpm = try SoftwareTPM()
        let keychain = PrivateKeychain()
        defer { Self.deleteKeychain(keychain) }
        _ = try Self.makeKey("com.example.tpm.other", keychain, tcti: tpm.tcti)
        tpm.stop()
        let other = try SoftwareTPM()
        #expect(try Self.sign("com.example.tpm.other", "hello", keychain, tcti: other.tcti)
            == .failure(StatusFailure(status: errSecDecode)))
    }

    @Test("A TPM that is gone gives errSecNotAvailable: signing with its key, and making a key in it (nothing stored)")
    func unreachableTPMIsNotAvailable() throws {
        let tpm = try SoftwareTPM()
        let keychain = PrivateKeychain()
        defer { Self.deleteKeychain(keychain) }
        _ = try Self.makeKey("com.example.tpm.gone", keychain, tcti: tpm.tcti)
        let tcti = tpm.tcti
        tpm.stop()
        #expect(try Self.sign("com.example.tpm.gone", "hello", keychain, tcti: tcti)
            == .failure(StatusFailure(status: errSecNotAvailable)))
        // A TPM named and unreachable never gives a key sealed in software instead.
        #expect(try Self.helper(["make-se-key", "com.example.tpm.never"], keychain, tcti: tcti) == "error \(errSecNotAvailable)")
        #expect(keychain.count([kSecClass as String: kSecClassKey,
                                kSecAttrApplicationTag as String: Data("com.example.tpm.never".utf8)]) == 0)
        // Without a TPM the key held in one cannot sign either.
        #expect(try Self.sign("com.example.tpm.gone", "hello", keychain, tcti: "none")
            == .failure(StatusFailure(status: errSecNotAvailable)))
    }

    @Test("A TPM key whose access control needs presence proves it before the TPM is used: no terminal, no agent is errSecInteractionNotAllowed")
    func presenceBeforeTheTPM() throws {
        let tpm = try SoftwareTPM()
        let keychain = PrivateKeychain()
        defer { Self.deleteKeychain(keychain) }
        let words = try Self.helper(["make-se-key", "com.example.tpm.presence", "presence"], keychain, tcti: tpm.tcti)
        #expect(words.hasPrefix("0 tpm "))
        // The helper runs in a session of its own (no controlling terminal) without
        // KEYCHAIN_ASKPASS: there is no one to ask. With the TPM stopped, the status still
        // says presence, not the TPM: presence is asked first.
        let tcti = tpm.tcti
        tpm.stop()
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_ASKPASS"] = nil
        environment["XDG_DATA_HOME"] = keychain.dataHome.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = Self.accessGroup
        environment["KEYCHAIN_TPM_TCTI"] = tcti
        let process = try SpawnedProcess(HelperProcess.executable.path, ["sign-key", "com.example.tpm.presence", "hello"],
                                         environment: environment, stdin: .open("/dev/null", O_RDONLY), stdout: .pipe,
                                         newSession: true)
        #expect(HelperProcess.finish(process) == "0 error \(errSecInteractionNotAllowed)")
    }

    @Test("With KEYCHAIN_TPM_TCTI=none the key is sealed in software as before, and signs")
    func withoutTPMKeysAreSealed() throws {
        let keychain = PrivateKeychain()
        defer { Self.deleteKeychain(keychain) }
        let made = try Self.makeKey("com.example.tpm.none", keychain, tcti: "none")
        #expect(made.place == "sealed")
        #expect(try Self.storedData("com.example.tpm.none", keychain)
            .starts(with: Data("swift-keychain secure-enclave-key 1\n".utf8)))
        let signature = try Self.sign("com.example.tpm.none", "hello", keychain, tcti: "none").get()
        #expect(Self.verifies(signature, "hello", made.publicKey))
    }
}
