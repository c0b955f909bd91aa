import Foundation
import Testing
import TestTags
import TestSupport

/// The README's and the Security documentation's Swift samples are programs in
/// Tests/DocumentationSamples, which this target depends on so that they are built: a sample
/// that no longer compiles fails the build, one that the text no longer shows exactly fails
/// here, and each runs as a process on a private keychain and must print what its
/// `// Prints: ...` comments say.
@Suite("Documentation samples")
struct DocumentationSampleTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samplesFolder = root.appendingPathComponent("Tests/DocumentationSamples")

    /// The documents whose Swift blocks must be samples: the README and every article of the
    /// Security catalog.
    static let documents: [String] = {
        let catalog = "Sources/Security/Security.docc"
        let articles = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)) ?? []
        return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
    }()

    /// Every sample program: each folder of Tests/DocumentationSamples (a target of the same name).
    static let samples: [String] = {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: samplesFolder.path)) ?? []
        return folders.filter { !$0.hasPrefix(".") }.sorted()
    }()

    static func source(of sample: String) throws -> String {
        try String(contentsOf: samplesFolder.appendingPathComponent("\(sample)/main.swift"), encoding: .utf8)
    }

    /// A block that shows a part of a package manifest (its first line says so) is not a
    /// program; Scripts/check-readme-package builds a package with it.
    static func isManifest(_ block: DocumentationBlocks.Block) -> Bool {
        block.text.hasPrefix("// Package.swift")
    }

    @Test("The catalog and the samples are found (an empty list would check nothing)")
    func thereIsSomethingToCheck() {
        #expect(Self.documents.count >= 4, "README and the Security catalog's articles")
        #expect(Self.samples.count >= 4)
    }

    @Test("Every Swift block of the README and the Security documentation is a whole sample program, verbatim",
          arguments: documents)
    func everyBlockIsASample(document: String) throws {
        let blocks = try DocumentationBlocks(contentsOf: Self.root.appendingPathComponent(document)).swift
        let sources = try Self.samples.map { try Self.source(of: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
        for block in blocks where !Self.isManifest(block) {
            let text = block.text.trimmingCharacters(in: .whitespacesAndNewlines)
            let isASample = sources.contains(text)
            #expect(isASample,
                    "\(document):\(block.line): this Swift block is not the main.swift of any Tests/DocumentationSamples program")
        }
    }

    @Test("Every sample is shown in the documentation, so none is kept and checked for nothing", arguments: samples)
    func everySampleIsShown(sample: String) throws {
        let shown = try Self.documents.flatMap {
            try DocumentationBlocks(contentsOf: Self.root.appendingPathComponent($0)).swift.map {
                $0.text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let source = try Self.source(of: sample).trimmingCharacters(in: .whitespacesAndNewlines)
        let isShown = shown.contains(source)
        #expect(isShown, "Tests/DocumentationSamples/\(sample)/main.swift is no Swift block of the README or the Security catalog")
    }

    /// Run twice on the same keychain folder: a reader runs a sample again, and the locking
    /// sample once trapped on its second run. The kernel keyring is left out so that the
    /// samples' unlocks stay in their processes rather than in the user's keyring.
    @Test("Each sample prints what its // Prints: comments say, on a first run and on a second one", .tags(.slow), arguments: samples)
    func samplePrintsWhatItSays(sample: String) throws {
        let expected = DocumentationBlocks.expectedOutput(of: try Self.source(of: sample))
        #expect(!expected.isEmpty, "a sample says what it prints")
        let dataHome = TestScratch.folder("sample")
        for run in 1...2 {
            let outcome = try ProgramProcess(sample).run(
                dataHome: dataHome, environment: ["KEYCHAIN_NO_KERNEL_KEYRING": "1"])
            #expect(outcome.status == 0, "run \(run): \(outcome.errors)")
            #expect(outcome.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                        == expected + [""], "run \(run)")
        }
    }

    @Test("The README's manifest depends on products this package declares, by a branch until a version is tagged")
    func manifestNamesRealProducts() throws {
        let readme = try DocumentationBlocks(contentsOf: Self.root.appendingPathComponent("README.md"))
        let manifests = readme.swift.filter(Self.isManifest)
        #expect(manifests.count == 1)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let tags = try String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        for block in manifests {
            let named = block.text.matches(of: /\.product\(name: "([A-Za-z]+)", package: "swift-keychain"/).map { String($0.1) }
            #expect(!named.isEmpty)
            for product in named {
                #expect(manifest.contains(".library(name: \"\(product)\""), "\(product) is not a library of Package.swift")
            }
            // No version is tagged yet (the CHANGELOG has only Unreleased): a `from:` would not resolve.
            if !tags.contains("## [0.") {
                #expect(block.text.contains("branch: \"main\""))
                #expect(!block.text.contains("from:"))
            }
        }
    }

    @Test("Fenced blocks are found with their language, inside list items too, and their printed lines read")
    func blocksAreExtracted() {
        let markdown = """
            Text.

            ```swift
            print(1)   // Prints: 1
            ```

            - An item:

              ```sh
              echo hi
              ```
            - Another:

              ```swift
              let a = 2
                print(a)   // Prints: 2
              ```
            """
        let blocks = DocumentationBlocks(markdown: markdown).blocks
        #expect(blocks == [
            .init(language: "swift", text: "print(1)   // Prints: 1", line: 3),
            .init(language: "sh", text: "echo hi", line: 9),
            .init(language: "swift", text: "let a = 2\n  print(a)   // Prints: 2", line: 14),
        ])
        #expect(DocumentationBlocks.expectedOutput(of: blocks[2].text) == ["2"])
    }
}
