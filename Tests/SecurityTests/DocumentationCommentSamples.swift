import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// Every Swift block of the Security module's documentation comments, verbatim, in a function
/// that the test below runs: a sample that stops compiling fails the build, and one that the
/// comments no longer show exactly fails the test.
enum DocumentationCommentSamples {
    // MARK: SecRandom.swift

    static func randomKey() -> (status: OSStatus, key: [UInt8]) {
        var key = [UInt8](repeating: 0, count: 32)
        let status = SecRandomCopyBytes(kSecRandomDefault, key.count, &key)
        return (status, key)
    }

    // MARK: Keys/SecKey.swift

    static func keyFromData(_ x963: Data) -> SecKey? {
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateWithData(x963 as CFData, attributes as CFDictionary, &error)
        return key
    }

    // MARK: Keys/SecKeyCreateRandomKey.swift, KeyOperation.swift and SecKeySignature.swift

    static func signWithNewKey(_ message: Data) throws -> (signature: Data, publicKey: SecKey?, canSign: Bool) {
        let parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeySizeInBits as String: 256]
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
            throw error!.takeRetainedValue() as Error
        }
        let publicKey = SecKeyCopyPublicKey(privateKey)
        let canSign = SecKeyIsAlgorithmSupported(privateKey, .sign, .ecdsaSignatureMessageX962SHA256)
        let signature = try sign(message, with: privateKey)
        return (signature, publicKey, canSign)
    }

    static func sign(_ message: Data, with privateKey: SecKey) throws -> Data {
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256,
                                                    message as CFData, &error) as Data? else {
            throw error!.takeRetainedValue() as Error
        }
        return signature
    }

    // MARK: Keys/KeyExchange.swift and KeyExchangeParameter.swift

    static func agree(_ myPrivateKey: SecKey, _ theirPublicKey: SecKey, info: Data) -> Data? {
        let parameters = [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32,
                          SecKeyKeyExchangeParameter.sharedInfo.rawValue: info] as CFDictionary
        var error: Unmanaged<CFError>?
        let secret = SecKeyCopyKeyExchangeResult(myPrivateKey, .ecdhKeyExchangeStandardX963SHA256,
                                                 theirPublicKey, parameters, &error) as Data?
        return secret
    }

    // MARK: PKCS12/SecPKCS12Import.swift

    static func importIdentities(_ p12: Data) -> (status: OSStatus, items: CFArray?) {
        var items: CFArray?
        let status = SecPKCS12Import(p12 as CFData, [kSecImportExportPassphrase as String: "secret"] as CFDictionary, &items)
        return (status, items)
    }
}

@Suite("Security documentation comments")
struct DocumentationCommentSampleTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Security")

    /// Documentation rule: a sample in a documentation comment is code the tests compile.
    @Test func everySwiftBlockIsCompiledByTheTests() throws {
        let samples = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("DocumentationCommentSamples.swift"), encoding: .utf8)
        let blocks = try DocumentationBlocks.documentationCommentSamples(under: Self.sources)
        #expect(blocks.count >= 2)
        for (file, block) in blocks {
            #expect(DocumentationBlocks.source(samples, contains: block), "\(file): not in DocumentationCommentSamples.swift:\n\(block)")
        }
    }

    /// The samples do what their comments say: random bytes that are not all zero, a key that
    /// swift-crypto's X9.63 bytes make and that exports to the same bytes.
    @Test func theSamplesWork() throws {
        let random = DocumentationCommentSamples.randomKey()
        #expect(random.status == errSecSuccess && random.key != [UInt8](repeating: 0, count: 32))
        let original = P256.Signing.PrivateKey()
        let key = try #require(DocumentationCommentSamples.keyFromData(original.x963Representation))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyExternalRepresentation(key, &error) as Data? == original.x963Representation)

        // A new key signs; swift-crypto verifies with the public key it exports.
        let message = Data("documented".utf8)
        let signed = try DocumentationCommentSamples.signWithNewKey(message)
        #expect(signed.canSign)
        let publicKey = try #require(signed.publicKey)
        let exported = try #require(SecKeyCopyExternalRepresentation(publicKey, &error) as Data?)
        let verifier = try P256.Signing.PublicKey(x963Representation: exported)
        #expect(verifier.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signed.signature), for: message))

        // Both sides of an exchange derive the same 32 bytes.
        let ours = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary, nil))
        let theirs = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary, nil))
        let info = Data("context".utf8)
        let ourPublicKey = try #require(SecKeyCopyPublicKey(ours))
        let theirPublicKey = try #require(SecKeyCopyPublicKey(theirs))
        let mine = try #require(DocumentationCommentSamples.agree(ours, theirPublicKey, info: info))
        #expect(mine.count == 32)
        #expect(mine == DocumentationCommentSamples.agree(theirs, ourPublicKey, info: info))

        // Bytes that are no PKCS #12 file: errSecDecode, and nothing returned.
        let imported = DocumentationCommentSamples.importIdentities(Data("not a file".utf8))
        #expect(imported.status == errSecDecode && imported.items == nil)
    }
}
