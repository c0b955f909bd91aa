import Foundation
import Testing

/// Rules of the developers' guide that a scan of the sources checks.
@Suite struct SourceRulesTests {
    /// The package's `Sources` folder, found from this file's path.
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// "No `try!`": an error that can happen must become a status or a message, never a crash.
    @Test func noSourceFileUsesTryBang() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 50, "the scan must see the sources")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { $0.element.contains("try!") }.map { $0.offset + 1 }
            #expect(lines.isEmpty, "try! in \(file.path) at line(s) \(lines)")
        }
    }
}
