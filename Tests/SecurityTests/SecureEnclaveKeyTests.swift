import Crypto
import Foundation
import KeychainCore
import Security
import SwiftASN1
import Testing
import TestSupport
import X509

/// Secure Enclave-style keys (`kSecAttrTokenID: kSecAttrTokenIDSecureEnclave`): P-256 only,
/// their private part never leaves the library through any call, a stored one is
/// ThisDeviceOnly (bound to this machine's secret), and using one first proves what its
/// access control asks.
@Suite("Secure Enclave-style keys")
struct SecureEnclaveKeyTests {
    private static let message = Data("the message a Secure Enclave key signs".utf8)

    private static func accessControl(_ protection: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                      _ flags: SecAccessControlCreateFlags = .privateKeyUsage) throws -> SecAccessControl {
        try #require(SecAccessControlCreateWithFlags(nil, protection, flags, nil))
    }

    /// Apple's usual parameters: the token at the top level, the private key permanent with
    /// its access control.
    private static func parameters(tag: Data, accessControl: SecAccessControl?, permanent: Bool = true,
                                   type: CFString = kSecAttrKeyTypeECSECPrimeRandom, bits: Int = 256,
                                   more: [String: Any] = [:]) -> [String: Any] {
        var privateAttributes: [String: Any] = [kSecAttrIsPermanent as String: permanent,
                                                kSecAttrApplicationTag as String: tag]
        privateAttributes[kSecAttrAccessControl as String] = accessControl
        return [kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs as String: privateAttributes].merging(more) { $1 }
    }

    /// Creates a key; the key, or the failure's status and message.
    private static func create(_ parameters: [String: Any], in keychain: PrivateKeychain)
        -> (key: SecKey?, status: OSStatus, message: String) {
        keychain.run {
            var error: Unmanaged<CFError>?
            let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
            let failure = error?.takeRetainedValue()
            return (key, OSStatus(truncatingIfNeeded: failure.map(CFErrorGetCode) ?? 0),
                    failure.map { CFErrorCopyDescription($0) as String? ?? "" } ?? "")
        }
    }

    private static func findPrivateKey(tag: Data, in keychain: PrivateKeychain) throws -> SecKey {
        let found = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                           kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                                           kSecReturnRef as String: true])
        #expect(found.status == errSecSuccess)
        return try #require(found.result.map { $0 as AnyObject } as? SecKey)
    }

    /// A signature, or the status of the failure.
    private static func sign(_ key: SecKey, in keychain: PrivateKeychain) -> (signature: Data?, status: OSStatus) {
        keychain.run {
            var error: Unmanaged<CFError>?
            let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, &error)
            return (signature as Data?, OSStatus(truncatingIfNeeded: error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0))
        }
    }

    private static func publicKey(of key: SecKey) throws -> P256.Signing.PublicKey {
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        let bytes = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
        return try P256.Signing.PublicKey(x963Representation: bytes)
    }

    @Test("kSecAttrTokenIDSecureEnclave is Apple's value, com.apple.setoken")
    func tokenConstant() {
        #expect(kSecAttrTokenIDSecureEnclave as String == "com.apple.setoken")
    }

    @Test("A stored Secure Enclave-style key signs, found again by reference; swift-crypto and openssl verify the signature")
    func signsAndVerifiesIndependently() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.se.sign".utf8)
        let created = Self.create(Self.parameters(tag: tag, accessControl: try Self.accessControl()), in: keychain)
        let key = try #require(created.key, "\(created.status) \(created.message)")
        // .privateKeyUsage alone needs no presence: the key signs without asking anyone.
        let found = try Self.findPrivateKey(tag: tag, in: keychain)
        for signer in [key, found] {
            let signature = try #require(Self.sign(signer, in: keychain).signature)
            let ecdsa = try P256.Signing.ECDSASignature(derRepresentation: signature)
            #expect(try Self.publicKey(of: key).isValidSignature(ecdsa, for: Self.message))
        }

        // openssl, from the public key's SubjectPublicKeyInfo PEM.
        let folder = TestScratch.folder("secure-enclave-openssl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let publicPEM = folder.appendingPathComponent("public.pem")
        let signatureFile = folder.appendingPathComponent("signature.der")
        let messageFile = folder.appendingPathComponent("message")
        try Data(try Self.publicKey(of: found).pemRepresentation.utf8).write(to: publicPEM)
        try #require(Self.sign(found, in: keychain).signature).write(to: signatureFile)
        try Self.message.write(to: messageFile)
        let verified = try OpensslMaterial.openssl(["dgst", "-sha256", "-verify", publicPEM.path,
                                                    "-signature", signatureFile.path, messageFile.path])
        #expect(verified.status == 0 && verified.output.contains("Verified OK"))
    }

    @Test("Its key exchange and ECIES decryption work as with any P-256 key (swift-crypto on the other side)")
    func keyExchangeAndDecryption() throws {
        let keychain = PrivateKeychain()
        let key = try #require(Self.create(Self.parameters(tag: Data("com.example.se.ecdh".utf8),
                                                           accessControl: try Self.accessControl()), in: keychain).key)
        let other = P256.KeyAgreement.PrivateKey()
        let otherPublic = try #require(SecKeyCreateWithData(other.publicKey.x963Representation as CFData, [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ] as CFDictionary, nil))
        let shared = keychain.run {
            SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, otherPublic, [:] as CFDictionary, nil) as Data?
        }
        let ours = try P256.KeyAgreement.PublicKey(x963Representation: try Self.publicKey(of: key).x963Representation)
        let expected = try other.sharedSecretFromKeyAgreement(with: ours).withUnsafeBytes { Data($0) }
        #expect(shared == expected)

        let publicKey = try #require(SecKeyCopyPublicKey(key))
        let plaintext = Data("sealed to the Secure Enclave key".utf8)
        let ciphertext = try #require(SecKeyCreateEncryptedData(
            publicKey, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, plaintext as CFData, nil))
        let decrypted = keychain.run {
            SecKeyCreateDecryptedData(key, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, ciphertext, nil) as Data?
        }
        #expect(decrypted == plaintext)
    }

    @Test("Its private part cannot be exported: errSecUnimplemented, as Apple's token keys; its public key exports")
    func privatePartIsNotExportable() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.se.export".utf8)
        let inMemory = try #require(Self.create(Self.parameters(tag: tag, accessControl: nil, permanent: false), in: keychain).key)
        let stored = try #require(Self.create(Self.parameters(tag: tag, accessControl: try Self.accessControl()), in: keychain).key)
        for key in [inMemory, stored, try Self.findPrivateKey(tag: tag, in: keychain)] {
            var error: Unmanaged<CFError>?
            #expect(SecKeyCopyExternalRepresentation(key, &error) == nil)
            let failure = try #require(error?.takeRetainedValue())
            #expect(CFErrorGetCode(failure) == Int(errSecUnimplemented))
            #expect((CFErrorCopyDescription(failure) as String?)?.contains("export not implemented for key") == true)
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes[kSecAttrTokenID as String] as? String == "com.apple.setoken")
            #expect(attributes[kSecValueData as String] == nil)
            #expect(attributes[kSecAttrIsExtractable as String] as? Bool == false)
            #expect(attributes[kSecAttrIsSensitive as String] as? Bool == true)
            // The public half is an ordinary key: 65 bytes, 04 ‖ X ‖ Y.
            let publicBytes = try #require(SecKeyCopyPublicKey(key).flatMap { SecKeyCopyExternalRepresentation($0, nil) } as Data?)
            #expect(publicBytes.count == 65 && publicBytes.first == 0x04)
        }
    }

    @Test("Bad input: RSA, P-384, another token or a protection that is not ThisDeviceOnly is errSecParam and stores nothing")
    func onlyMachineBoundP256() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.se.refused".utf8)
        let refused: [[String: Any]] = [
            Self.parameters(tag: tag, accessControl: nil, type: kSecAttrKeyTypeRSA, bits: 2048),
            Self.parameters(tag: tag, accessControl: nil, bits: 384),
            Self.parameters(tag: tag, accessControl: nil, more: [kSecAttrTokenID as String: "com.example.token"]),
            Self.parameters(tag: tag, accessControl: try Self.accessControl(kSecAttrAccessibleWhenUnlocked)),
            Self.parameters(tag: tag, accessControl: nil).merging([kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]]) { $1 },
        ]
        for parameters in refused {
            let created = Self.create(parameters, in: keychain)
            #expect(created.key == nil && created.status == errSecParam, "\(created.message)")
            #expect(!created.message.isEmpty)
        }
        #expect(keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag]).status
            == errSecItemNotFound)
        // The same P-256 parameters with kSecAttrKeyTypeEC, Apple's older name, are accepted.
        #expect(Self.create(Self.parameters(tag: tag, accessControl: nil, permanent: false, type: kSecAttrKeyTypeEC),
                            in: keychain).key != nil)
    }

    @Test("The stored private key is ThisDeviceOnly with tkid; kSecReturnData gives no key material")
    func storedItemIsMachineBound() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.se.item".utf8)
        let given = Data("com.example.se.given".utf8)
        // Permanent at the top level: both halves are stored; only the private one is the token's.
        #expect(Self.create(Self.parameters(tag: tag, accessControl: nil,
                                            more: [kSecAttrIsPermanent as String: true,
                                                   kSecPublicKeyAttrs as String: [kSecAttrApplicationTag as String: tag]]),
                            in: keychain).key != nil)
        let publicItem = keychain.attributes([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                              kSecAttrKeyClass as String: kSecAttrKeyClassPublic])
        #expect(publicItem.status == errSecSuccess && publicItem.attributes?[kSecAttrTokenID as String] == nil)
        #expect(Self.create(Self.parameters(tag: given, accessControl: try Self.accessControl(
            kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly)), in: keychain).key != nil)
        for (itemTag, protection) in [(tag, "aku"), (given, "cku")] {
            let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: itemTag,
                                        kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
            let found = keychain.attributes(query)
            #expect(found.attributes?[kSecAttrTokenID as String] as? String == "com.apple.setoken")
            #expect(found.attributes?[kSecAttrAccessible as String] as? String == protection)
            // Data alone: empty, not the key; with the attributes: no v_Data at all.
            let data = keychain.copyMatching(query.merging([kSecReturnData as String: true]) { $1 })
            #expect(data.status == errSecSuccess && (data.result as? Data)?.isEmpty == true)
            let both = keychain.copyMatching(query.merging([kSecReturnData as String: true,
                                                            kSecReturnAttributes as String: true]) { $1 })
            #expect((both.result as? [String: Any]).map { $0[kSecValueData as String] == nil } == true)
        }
    }

    @Test("An in-memory Secure Enclave-style key added by reference is stored ThisDeviceOnly; under a migrating class it is errSecParam")
    func addedByReference() throws {
        let keychain = PrivateKeychain()
        let key = try #require(Self.create(Self.parameters(tag: Data("unused".utf8), accessControl: nil, permanent: false),
                                           in: keychain).key)
        let tag = Data("com.example.se.by-reference".utf8)
        #expect(keychain.add([kSecValueRef as String: key, kSecAttrApplicationTag as String: tag]) == errSecSuccess)
        let attributes = keychain.attributes([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag]).attributes
        #expect(attributes?[kSecAttrAccessible as String] as? String == "aku")
        #expect(attributes?[kSecAttrTokenID as String] as? String == "com.apple.setoken")
        let found = try Self.findPrivateKey(tag: tag, in: keychain)
        #expect(SecKeyCopyExternalRepresentation(found, nil) == nil)
        #expect(Self.sign(found, in: keychain).signature != nil)

        // A caller that names a migrating class is refused: the key could travel in an
        // archive and sign elsewhere.
        let migrating = Data("com.example.se.migrating".utf8)
        #expect(keychain.add([kSecValueRef as String: key, kSecAttrApplicationTag as String: migrating,
                              kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]) == errSecParam)
        #expect(keychain.count([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: migrating]) == 0)
    }

    @Test("An exported archive leaves the Secure Enclave-style key out (ThisDeviceOnly)")
    func archiveLeavesItOut() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.se.archive".utf8)
        let key = try #require(Self.create(Self.parameters(tag: tag, accessControl: nil), in: keychain).key)
        #expect(keychain.add([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "migrates",
                              kSecValueData as String: Data("s3cret".utf8)]) == errSecSuccess)
        let source = try keychain.run { try Self.defaultKeychain() }
        let export = try source.exportArchive(password: Data("archive password".utf8))

        let target = PrivateKeychain()
        // The first add creates the target keychain.
        #expect(target.add([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "already there",
                            kSecValueData as String: Data("other".utf8)]) == errSecSuccess)
        let destination = try target.run { try Self.defaultKeychain() }
        let counts = try destination.importArchive(export.archive, password: Data("archive password".utf8),
                                                   policy: .failOnDuplicate)
        #expect(counts.imported == 1)
        #expect(target.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag]).status
            == errSecItemNotFound)
        #expect(target.secret([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "migrates"])
            == Data("s3cret".utf8))
        // The key is still here, and still signs.
        #expect(Self.sign(key, in: keychain).signature != nil)
    }

    private static func defaultKeychain() throws -> SecKeychain {
        var keychain: SecKeychain?
        #expect(SecKeychainCopyDefault(&keychain) == errSecSuccess)
        return try #require(keychain)
    }

    @Test("An identity with a Secure Enclave-style key: kSecReturnData gives no key material, and a PKCS #12 export refuses it")
    func identityStaysHere() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.se.identity".utf8)
        let key = try #require(Self.create(Self.parameters(tag: tag, accessControl: nil), in: keychain).key)
        // A certificate for the key's public half, issued by a swift-crypto CA key.
        let issuer = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Secure Enclave identity") }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: [0x05]),
            publicKey: .init(try Self.publicKey(of: key)), notValidBefore: Date(), notValidAfter: Date() + 3600,
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: .init(),
            issuerPrivateKey: .init(issuer))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let secCertificate = try #require(SecCertificateCreateWithData(nil, Data(serializer.serializedBytes) as CFData))
        #expect(keychain.add([kSecValueRef as String: secCertificate]) == errSecSuccess)

        let query: [String: Any] = [kSecClass as String: kSecClassIdentity, kSecAttrApplicationTag as String: tag]
        let identity = try #require(keychain.copyMatching(query.merging([kSecReturnRef as String: true]) { $1 }).result
            .map { $0 as AnyObject } as? SecIdentity)
        let data = keychain.copyMatching(query.merging([kSecReturnData as String: true]) { $1 })
        #expect(data.status == errSecSuccess && (data.result as? Data)?.isEmpty == true)
        let failure = #expect(throws: SecKeychainFailure.self) { try SecPKCS12Export([identity], passphrase: "pass") }
        #expect(failure?.status == errSecUnimplemented)
    }

    @Test("A copy of the keychain folder with another machine secret cannot use the key; this machine's can")
    func boundToThisMachine() throws {
        let keychain = PrivateKeychain()
        let tag = "com.example.se.machine"
        let key = try #require(Self.create(Self.parameters(tag: Data(tag.utf8), accessControl: nil), in: keychain).key)
        let here = try HelperProcess.run(["sign-key", tag, "hello"], dataHome: keychain.dataHome,
                                         accessGroups: "com.example.app")
        let words = here.split(separator: " ")
        #expect(words.first == "0" && words.count == 2)
        let hex = Array(String(words.last ?? "").utf8)
        let der = Data(stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16) })
        let signature = try P256.Signing.ECDSASignature(derRepresentation: der)
        #expect(try Self.publicKey(of: key).isValidSignature(signature, for: Data("hello".utf8)))

        let elsewhere = TestScratch.folder("secure-enclave-copy")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: keychain.directory, to: elsewhere.appendingPathComponent("keychains"))
        let there = try HelperProcess.run(["sign-key", tag, "hello"], dataHome: elsewhere, accessGroups: "com.example.app",
                                          more: ["XDG_STATE_HOME": elsewhere.appendingPathComponent("state").path])
        #expect(there == "\(errSecDecode)")
    }

    @Test("A key whose access control needs presence fails to sign with no terminal and no agent: errSecInteractionNotAllowed")
    func presenceWithoutTerminal() throws {
        // The helper runs in a session of its own (no controlling terminal) without
        // KEYCHAIN_ASKPASS, so there is no one to ask.
        let keychain = PrivateKeychain()
        let tag = "com.example.se.presence"
        #expect(Self.create(Self.parameters(tag: Data(tag.utf8), accessControl: try Self.accessControl(
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .userPresence])), in: keychain).key != nil)
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_ASKPASS"] = nil
        environment["XDG_DATA_HOME"] = keychain.dataHome.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = "com.example.app"
        let process = try SpawnedProcess(HelperProcess.executable.path, ["sign-key", tag, "hello"],
                                         environment: environment, stdin: .open("/dev/null", 0), stdout: .pipe,
                                         newSession: true)
        #expect(HelperProcess.finish(process) == "0 error \(errSecInteractionNotAllowed)")
    }

    /// A stand-in for LocalAuthentication's LAContext, used ONLY to check that Security
    /// consults the context given with the key rather than prompting: it answers as told and
    /// counts the calls.
    final class CountingContext: AuthenticationContext, @unchecked Sendable {
        let answer: Result<Void, PresenceFailure>
        private(set) var calls: [(reason: String?, allowPrompt: Bool)] = []

        init(answer: Result<Void, PresenceFailure>) { self.answer = answer }

        var interactionNotAllowed: Bool { false }

        func proveUserPresence(reason: String?, allowPrompt: Bool) -> Result<Void, PresenceFailure> {
            calls.append((reason, allowPrompt))
            return answer
        }

        func applicationPassword() -> SecretBytes? { nil }
    }

    @Test("The kSecUseAuthenticationContext given with the key is asked for presence, with kSecUseOperationPrompt; its failure is the call's status")
    func contextIsConsulted() throws {
        let keychain = PrivateKeychain()
        let presence = try Self.accessControl(kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .userPresence])
        let cases: [(Result<Void, PresenceFailure>, OSStatus)] = [
            (.success(()), errSecSuccess), (.failure(.cancelled), errSecUserCanceled),
            (.failure(.authenticationFailed), errSecAuthFailed), (.failure(.notInteractive), errSecInteractionNotAllowed),
        ]
        for (index, (answer, status)) in cases.enumerated() {
            let context = CountingContext(answer: answer)
            let key = try #require(Self.create(Self.parameters(
                tag: Data("com.example.se.context.\(index)".utf8), accessControl: presence,
                more: [kSecUseAuthenticationContext as String: context,
                       kSecUseOperationPrompt as String: "Sign the release"]), in: keychain).key)
            let signed = Self.sign(key, in: keychain)
            #expect(signed.status == status)
            #expect((signed.signature != nil) == (status == errSecSuccess))
            #expect(context.calls.count == 1)
            #expect(context.calls.first?.reason == "Sign the release" && context.calls.first?.allowPrompt == true)
        }
        // Key exchange and decryption (ECIES) ask as signing does.
        let refusing = CountingContext(answer: .failure(.cancelled))
        let guarded = try #require(Self.create(Self.parameters(tag: Data("com.example.se.context.other".utf8),
                                                               accessControl: presence,
                                                               more: [kSecUseAuthenticationContext as String: refusing]),
                                               in: keychain).key)
        let publicKey = try #require(SecKeyCopyPublicKey(guarded))
        let ciphertext = try #require(SecKeyCreateEncryptedData(
            publicKey, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, Self.message as CFData, nil))
        var decryptError: Unmanaged<CFError>?
        #expect(SecKeyCreateDecryptedData(guarded, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, ciphertext,
                                          &decryptError) == nil)
        #expect(decryptError.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecUserCanceled))
        var exchangeError: Unmanaged<CFError>?
        #expect(SecKeyCopyKeyExchangeResult(guarded, .ecdhKeyExchangeStandard, publicKey, [:] as CFDictionary,
                                            &exchangeError) == nil)
        #expect(exchangeError.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecUserCanceled))
        #expect(refusing.calls.count == 2)

        // Verifying with the public key, or a call the key cannot run, asks no one.
        let context = CountingContext(answer: .success(()))
        let key = try #require(Self.create(Self.parameters(tag: Data("com.example.se.context.quiet".utf8),
                                                           accessControl: presence,
                                                           more: [kSecUseAuthenticationContext as String: context]),
                                           in: keychain).key)
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateSignature(key, .rsaSignatureMessagePKCS1v15SHA256, Self.message as CFData, &error) == nil)
        #expect(error.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecUnimplemented))
        #expect(context.calls.isEmpty)
    }

    @Test("Biometry-only access control cannot be met on Linux: errSecAuthFailed, without asking the context")
    func biometryOnly() throws {
        let keychain = PrivateKeychain()
        let context = CountingContext(answer: .success(()))
        let key = try #require(Self.create(Self.parameters(
            tag: Data("com.example.se.biometry".utf8),
            accessControl: try Self.accessControl(kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .biometryAny]),
            more: [kSecUseAuthenticationContext as String: context]), in: keychain).key)
        var error: Unmanaged<CFError>?
        #expect(keychain.run { SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, &error) } == nil)
        let failure = try #require(error?.takeRetainedValue())
        #expect(CFErrorGetCode(failure) == Int(errSecAuthFailed))
        #expect((CFErrorCopyDescription(failure) as String?)?.contains("biometry") == true)
        #expect(context.calls.isEmpty)
    }
}
