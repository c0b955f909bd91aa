import Foundation
import Testing
import TestSupport
import TestTags

/// A package that follows the README's dependency lines uses the libraries only, and pays for
/// nothing else: it resolves none of the programs' dependencies (the PostgreSQL client and the
/// NIO stack under it, the argument parser). Checked by resolving a scratch package made of
/// the README's own manifest lines, with the address swapped for this checkout.
@Suite("The README's dependency lines")
struct LibraryDependencyTests {
    /// Packages only the programs need; a library user must resolve none of them.
    static let programsOnly: Set<String> = ["postgres-nio", "swift-nio", "swift-nio-ssl", "swift-argument-parser"]

    /// The README's manifest block, whose first line is `// Package.swift`.
    static func readmeManifest() throws -> String {
        let readme = DocumentationSampleTests.root.appendingPathComponent("README.md")
        let blocks = try DocumentationBlocks(contentsOf: readme).swift.filter(DocumentationSampleTests.isManifest)
        try #require(blocks.count == 1, "the README has one manifest block")
        return blocks[0].text
    }

    /// Resolves a package whose manifest is the README's lines with `dependencyLine` made of
    /// the README's own by `edit`, and returns the packages it checked out.
    static func resolvedPackages(editing edit: (String) -> String) throws -> Set<String> {
        let lines = try readmeManifest().split(separator: "\n").filter { !$0.hasPrefix("// Package.swift") }
        let address = #/\.package\(url: "[^"]*", branch: "[^"]*"/#
        let folder = TestScratch.folder("dependent")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Swift names a path dependency after its folder: a link keeps the package's name.
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("swift-keychain"), withDestinationURL: DocumentationSampleTests.root)
        let package = folder.appendingPathComponent("Dependent")
        let manifest = lines.map { line in
            edit(String(line)).replacing(address, with: ".package(path: \"../swift-keychain\"")
        }
        try #require(manifest.contains { $0.contains(".package(path:") }, "the README's line names the package by URL and branch")
        let target = try #require(manifest.joined().firstMatch(of: #/Target\(name: "([^"]+)"/#)?.output.1)
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("Sources/\(target)"), withIntermediateDirectories: true)
        try "print(1)\n".write(to: package.appendingPathComponent("Sources/\(target)/main.swift"), atomically: true, encoding: .utf8)
        try (["// swift-tools-version:6.1", "import PackageDescription", "let package = Package(", "name: \"Dependent\","]
            + manifest + [")"]).joined(separator: "\n")
            .write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let result = try SpawnedProcess.runToEnd(
            "/usr/bin/env", ["swift", "package", "--package-path", package.path, "resolve"],
            environment: ProcessInfo.processInfo.environment, outputIn: folder)
        try #require(result.status == 0, "swift package resolve: \(result.errors)")
        let checkouts = try FileManager.default.contentsOfDirectory(atPath: package.appendingPathComponent(".build/checkouts").path)
        return Set(checkouts)
    }

    @Test("The README's lines resolve the libraries' dependencies and none of the programs'", .tags(.slow))
    func readmeLinesResolveLibrariesOnly() throws {
        #expect(try Self.readmeManifest().contains("traits: []"), "the README's dependency line turns the programs off")
        let resolved = try Self.resolvedPackages { $0 }
        #expect(resolved.isDisjoint(with: Self.programsOnly), "resolved: \(resolved.sorted())")
        // The libraries' own dependencies are there: the resolution did happen.
        #expect(resolved.isSuperset(of: ["GRDB.swift", "swift-crypto", "swift-certificates"]), "resolved: \(resolved.sorted())")
    }

    /// Without `traits: []` the package's default trait brings the programs, and with them
    /// their dependencies: what the line above saves.
    @Test("Without traits: [] the same lines resolve the programs' dependencies too", .tags(.slow))
    func defaultTraitsResolveThePrograms() throws {
        let resolved = try Self.resolvedPackages { $0.replacingOccurrences(of: ", traits: []", with: "") }
        #expect(resolved.isSuperset(of: ["postgres-nio", "swift-argument-parser"]), "resolved: \(resolved.sorted())")
    }
}
