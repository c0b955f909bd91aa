import Foundation
import Keychain
import Security
import Testing
import TestSupport

/// The Keychain DocC articles' code: every ```swift block is compiled (it appears verbatim in
/// DocumentationSamples.swift), and each sample does what its article says when run.
@Suite struct KeychainCatalogSampleTests {
    let keychainFiles = PrivateKeychain()

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalog = packageRoot.appendingPathComponent("Sources/SwiftKeychain/SwiftKeychain.docc")
    /// Every article of the catalog, so that a new one is checked too.
    static let articles: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        return files.filter { $0.hasSuffix(".md") }.sorted()
    }()

    /// Documentation rule: a sample in an article is code the tests compile, so it cannot
    /// drift from the API.
    @Test(arguments: articles)
    func everySwiftBlockIsCompiledByTheTests(article: String) throws {
        let samples = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Tests/KeychainTests/DocumentationSamples.swift"),
            encoding: .utf8)
        let blocks = try DocumentationBlocks(contentsOf: Self.catalog.appendingPathComponent(article)).swift.map(\.text)
        for block in blocks {
            #expect(DocumentationBlocks.source(samples, contains: block), "not in DocumentationSamples.swift:\n\(block)")
        }
    }

    /// The catalog is found, with the articles that teach by example.
    @Test func theCatalogsArticlesAreFound() throws {
        for article in ["SwiftKeychain.md", "GettingStarted.md", "MigratingFromOtherWrappers.md", "MigratingFromClassicWrappers.md"] {
            #expect(Self.articles.contains(article))
            #expect(!(try DocumentationBlocks(contentsOf: Self.catalog.appendingPathComponent(article)).swift.isEmpty), "\(article)")
        }
    }

    /// The same rule for the samples in the module's documentation comments.
    @Test func everySwiftBlockOfTheDocumentationCommentsIsCompiledByTheTests() throws {
        let samples = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Tests/KeychainTests/DocumentationSamples.swift"),
            encoding: .utf8)
        let blocks = try DocumentationBlocks.documentationCommentSamples(
            under: Self.packageRoot.appendingPathComponent("Sources/SwiftKeychain"))
        for (file, block) in blocks {
            #expect(DocumentationBlocks.source(samples, contains: block), "\(file): not in DocumentationSamples.swift:\n\(block)")
        }
        // Subfolders are searched too.
        #expect(blocks.contains { $0.file == "CryptoKeys/CryptoKeyStore.swift" })
        let checked = blocks.count
        #expect(checked >= 7)
    }

    /// The checker itself: a block found with other indentation or with one line changed
    /// is not found.
    @Test func theCheckerFindsIndentedBlocksAndOnlyExactOnes() {
        let markdown = "Text\n\n```swift\nlet a = 1\n\nprint(a)\n```\n\n- item\n\n  ```swift\n  f()\n  ```\n```sh\nls\n```\n"
        let blocks = DocumentationBlocks(markdown: markdown).swift.map(\.text)
        #expect(blocks == ["let a = 1\n\nprint(a)", "f()"])
        let source = "func x() {\n        let a = 1\n\n        print(a)\n        f()\n}"
        #expect(DocumentationBlocks.source(source, contains: blocks[0]))
        #expect(DocumentationBlocks.source(source, contains: "f()"))
        #expect(!DocumentationBlocks.source(source, contains: "let a = 1\nprint(a)"))
        #expect(!DocumentationBlocks.source("    let a = 1\n  print(a)", contains: "let a = 1\nprint(a)"))
        let comments = "    /// Text.\n    ///\n    /// ```swift\n    /// g()\n    /// ```\n    func h() {}"
        #expect(DocumentationBlocks(markdown: DocumentationBlocks.markdown(ofDocumentationCommentsIn: comments)).swift.map(\.text) == ["g()"])
    }

    @Test func gettingStartedSamplesDoWhatTheArticleSays() async throws {
        let path = TestScratch.folder("ci").appendingPathComponent("ci.keychain-db").path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try await keychainFiles.run {
            let basics = try DocumentationSamples.saveAndRead()
            #expect(basics.token == "s3cr3t" && basics.known && basics.keys.isEmpty)

            let values = try DocumentationSamples.otherValuesWithOptions()
            #expect(values.retries == 3 && values.endpoint == "https://api.example.com" && values.label == "API settings")

            #expect(DocumentationSamples.handleFailures(Keychain(service: "s"), token: "t"))
            #expect(!DocumentationSamples.handleFailures(Keychain(service: "s", accessGroup: "not-mine"), token: "t"))

            try await DocumentationSamples.fromAsyncCode("t2")
            #expect(try Keychain(service: "com.example.api").string(forKey: "deploy-bot") == "t2")

            var created: SecKeychain?
            #expect(SecKeychainCreate(path, 0, nil, false, nil, &created) == errSecSuccess)
            try DocumentationSamples.anotherKeychainFile(path: path, token: "t3")
            #expect(try Keychain(service: "com.example.ci", file: KeychainFile(path: path)).string(forKey: "deploy-bot") == "t3")
            #expect(try Keychain(service: "com.example.ci").contains("deploy-bot") == false)
        }
    }

    @Test func migrationSamplesDoWhatTheArticlesSay() throws {
        #expect(keychainFiles.add([
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "swift-item",
            kSecValueData as String: Data("v1".utf8),
        ]) == errSecSuccess)
        #expect(keychainFiles.add(genericPassword(account: "valet-item", service: "VAL_VALValet_example")
            .merging([kSecValueData as String: Data("v2".utf8)]) { $1 }) == errSecSuccess)
        try keychainFiles.run {
            #expect(try DocumentationSamples.fromKeychainAccess(token: "t") == nil)
            #expect(try Keychain(service: "com.example.github-token").string(forKey: "alice") == "t")

            try DocumentationSamples.fromKeychainSwift()
            #expect(try DocumentationSamples.fromValet(valetService: "VAL_VALValet_example") == 1)
            #expect(try Keychain(service: "com.example.app").allKeys() == ["swift-item", "valet-item"])

            // The classic wrappers, as the article runs them, in the program's own groups:
            // nothing there names a group the program does not hold.
            #expect(try DocumentationSamples.fromUYLPasswordManager(passwordHash: "h", attempt: "h"))
            #expect(try PasswordManager().key(forIdentifier: "alice") == nil)
            #expect(try DocumentationSamples.fromKeychainItemWrapper() == "1234")
            #expect(try KeychainItemWrapper(identifier: "com.example.pin").object(forKey: .valueData) as? String == "")
        }
    }

    @Test func documentationCommentSamplesDoWhatTheySay() throws {
        try keychainFiles.run {
            #expect(try DocumentationSamples.keychainType() == "s3cr3t")
            let keychain = Keychain(service: "com.example.samples")
            try keychain.set(4, forKey: "retries")
            #expect(try DocumentationSamples.readingAValue(keychain) == 4)
            try Keychain(service: "legacy-service").set("old", forKey: "carol")
            try DocumentationSamples.migratingByQuery(keychain)
            #expect(try keychain.string(forKey: "carol") == "old")
            #expect(DocumentationSamples.keychainErrorType(keychain))
            #expect(!DocumentationSamples.keychainErrorType(Keychain(service: "s", accessGroup: "not-mine")))
            #expect(DocumentationSamples.keychainFileType().file?.path == "/srv/ci/ci.keychain-db")
            #expect(try DocumentationSamples.keychainItemWrapperType() == "1234")
            #expect(try DocumentationSamples.passwordManagerType(password: "p", attempt: "p", username: "dave"))
            #expect(try DocumentationSamples.passwordManagerType(password: "p", attempt: "q", username: "dave") == false)
        }
    }
}
