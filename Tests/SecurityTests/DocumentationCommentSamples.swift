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
    }
}
