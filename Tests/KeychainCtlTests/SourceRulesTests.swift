import Foundation
import Testing

/// Rules of the developers' guide that a scan of the sources checks.
@Suite struct SourceRulesTests {
    /// The package's `Sources` folder, found from this file's path.
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// The Swift files under `Sources/<folder>` (every source file for nil).
    static func swiftFiles(in folder: String? = nil) throws -> [URL] {
        let root = folder.map { Self.sources.appendingPathComponent($0) } ?? Self.sources
        return try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The numbers of the lines of `file` that `matches` picks.
    static func lines(of file: URL, where matches: (Substring) -> Bool) throws -> [Int] {
        try String(contentsOf: file, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { matches($0.element) }.map { $0.offset + 1 }
    }

    /// "No `try!`": an error that can happen must become a status or a message, never a crash.
    @Test func noSourceFileUsesTryBang() throws {
        let files = try Self.swiftFiles()
        #expect(files.count > 50, "the scan must see the sources")
        for file in files {
            let lines = try Self.lines(of: file) { $0.contains("try!") }
            #expect(lines.isEmpty, "try! in \(file.path) at line(s) \(lines)")
        }
    }

    /// Layering: keychainctl is written against the `Security` API only; the core is that
    /// module's implementation detail.
    @Test func keychainctlDoesNotImportTheCore() throws {
        let files = try Self.swiftFiles(in: "KeychainCtl")
        #expect(files.count > 30, "the scan must see keychainctl's sources")
        for file in files {
            let lines = try Self.lines(of: file) { line in
                line.split(whereSeparator: \.isWhitespace).contains("KeychainCore")
                    && line.split(whereSeparator: \.isWhitespace).contains("import")
            }
            #expect(lines.isEmpty, "\(file.path) imports KeychainCore at line(s) \(lines)")
        }
    }

    /// Other packages' `#if canImport(Security)` code loads `Security` without the core's C
    /// modules (`_AtomicsShims`, SQLite) only while every import of the core in it is
    /// `@_implementationOnly`: an `internal` or `package` import is loaded by every client of
    /// a module built without library evolution (see Package.swift). CoexistenceTests builds
    /// such code; this scan names the file at once. LocalAuthentication, a product beside
    /// Security on the core, follows the same rule.
    @Test(arguments: [("Security", 5), ("LocalAuthentication", 1)])
    func moduleImportsTheCoreImplementationOnly(module: String, leastImports: Int) throws {
        var hidden = 0
        for file in try Self.swiftFiles(in: module) {
            let imports = try Self.lines(of: file) { line in
                let words = line.split(whereSeparator: \.isWhitespace)
                return words.contains("import") && words.contains("KeychainCore")
            }
            let exposing = try Self.lines(of: file) { line in
                let words = line.split(whereSeparator: \.isWhitespace)
                return words.contains("import") && words.contains("KeychainCore") && words.first != "@_implementationOnly"
            }
            hidden += imports.count - exposing.count
            #expect(exposing.isEmpty, "\(file.lastPathComponent) imports KeychainCore other than @_implementationOnly at line(s) \(exposing)")
        }
        #expect(hidden > leastImports, "the scan must see \(module)'s imports of the core")
    }

    /// Apple-compatible source: the C functions Apple's Security and Core Foundation declare
    /// return values that Swift lets callers ignore (`SecItemDelete(query as CFDictionary)`
    /// compiles without a warning on Apple platforms), so their counterparts here are
    /// `@discardableResult`.
    @Test func mirroredCFunctionsHaveDiscardableResults() throws {
        let files = try Self.swiftFiles(in: "Security")
        var checked = 0
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.wholeMatch(of: /public func (Sec|CF)\w+\(.*/) != nil {
                // The signature up to its body, which may span several lines.
                let signature = lines[index...].prefix { !$0.contains("{") }.joined() + (lines[index...].first { $0.contains("{") } ?? "")
                guard signature.split(separator: "{").first?.contains("->") == true else { continue }
                checked += 1
                let attributes = lines[..<index].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@") }
                #expect(attributes.contains { $0.contains("@discardableResult") },
                        "\(file.lastPathComponent):\(index + 1) \(line) lacks @discardableResult")
            }
        }
        #expect(checked > 20, "the scan must see the Security functions")
    }

    /// The core is no product: nothing in it is `public` (`package` at most), so that no
    /// user of the library meets a second API or a second `KeychainError`.
    @Test func theCoreDeclaresNothingPublic() throws {
        let files = try Self.swiftFiles(in: "KeychainCore")
        #expect(files.count > 30, "the scan must see the core's sources")
        for file in files {
            let lines = try Self.lines(of: file) { line in
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                // Words inside string literals ("The public key is incomplete.") declare nothing.
                let outsideStrings = code.replacing(/"[^"]*"/, with: "\"\"")
                let words = outsideStrings.split(whereSeparator: { $0.isWhitespace || $0 == "(" })
                return words.contains("public") || words.first == "open"
            }
            #expect(lines.isEmpty, "public declaration in \(file.path) at line(s) \(lines)")
        }
    }
}
