import Foundation
import Testing

/// Layering: the credential helpers are written against the public `Security` API only.
@Suite struct CredentialHelperSourceTests {
    @Test func theHelpersDoNotImportTheCore() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CredentialHelpers")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count >= 10, "the scan must see the helpers' sources")
        for file in files {
            let importsCore = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").contains { line in
                let words = line.split(whereSeparator: \.isWhitespace)
                return words.contains("import") && words.contains("KeychainCore")
            }
            #expect(!importsCore, "\(file.lastPathComponent) imports KeychainCore")
        }
    }
}
