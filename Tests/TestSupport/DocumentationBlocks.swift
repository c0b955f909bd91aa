import Foundation

/// The fenced code blocks of a Markdown file (the README, a DocC article), so that a test can
/// check each Swift sample against a program that compiles and runs it.
public struct DocumentationBlocks: Sendable {
    /// One fenced block: its info string (`swift`, `sh`, ...), its text without the fences and
    /// without the indentation of its opening fence, and the line of that fence (1-based).
    public struct Block: Sendable, Equatable {
        public let language: String
        public let text: String
        public let line: Int

        public init(language: String, text: String, line: Int) {
            self.language = language
            self.text = text
            self.line = line
        }
    }

    public let blocks: [Block]

    /// The blocks of `markdown`. A fence is three backticks, indented or not (blocks inside
    /// list items are); it closes at the next line that is only backticks at that indentation
    /// or less. An unclosed block runs to the end of the text, as Markdown reads it.
    public init(markdown: String) {
        var blocks: [Block] = []
        var open: (language: String, indentation: Int, line: Int, lines: [String])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indentation = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indentation)
            if var block = open {
                if content.hasPrefix("```"), content.allSatisfy({ $0 == "`" }), indentation <= block.indentation {
                    blocks.append(Block(language: block.language, text: block.lines.joined(separator: "\n"), line: block.line))
                    open = nil
                } else {
                    // Lines keep what they have beyond the fence's indentation.
                    block.lines.append(String(line.dropFirst(min(indentation, block.indentation))))
                    open = block
                }
            } else if content.hasPrefix("```") {
                let language = content.dropFirst(3).trimmingCharacters(in: .whitespaces)
                open = (language, indentation, index + 1, [])
            }
        }
        if let block = open {
            blocks.append(Block(language: block.language, text: block.lines.joined(separator: "\n"), line: block.line))
        }
        self.blocks = blocks
    }

    /// The blocks of the Markdown file at `url`.
    public init(contentsOf url: URL) throws {
        self.init(markdown: try String(contentsOf: url, encoding: .utf8))
    }

    /// The Swift blocks.
    public var swift: [Block] { blocks.filter { $0.language == "swift" } }

    /// A shell line of a README block: the command, trimmed, and what its `   # prints ...`
    /// comment says it prints (nil without one). Any other comment is dropped.
    public static func shellLine(_ line: String) -> (command: String, prints: String?) {
        var command = line
        var prints: String?
        if let comment = line.range(of: "   # ") {
            command = String(line[..<comment.lowerBound])
            let note = line[comment.upperBound...]
            if note.hasPrefix("prints ") { prints = String(note.dropFirst("prints ".count)) }
        }
        return (command.trimmingCharacters(in: .whitespaces), prints)
    }

    /// What a sample says it prints: the text after `// Prints: ` on each of its lines, in
    /// order, one line of standard output each.
    public static func expectedOutput(of source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            guard let marker = line.range(of: "// Prints: ") else { return nil }
            return String(line[marker.upperBound...])
        }
    }

    /// The Markdown of a Swift file's documentation comments (`///` lines, without the
    /// slashes and the space after them); other lines become empty lines.
    public static func markdown(ofDocumentationCommentsIn source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            let trimmed = line.drop(while: { $0 == " " })
            guard trimmed.hasPrefix("///") else { return "" }
            let text = trimmed.dropFirst(3)
            return text.first == " " ? text.dropFirst() : text
        }.joined(separator: "\n")
    }

    /// The Swift blocks of the documentation comments of every Swift file under `folder`
    /// (subfolders too), each with the file's path relative to `folder`.
    public static func documentationCommentSamples(under folder: URL) throws -> [(file: String, text: String)] {
        let files = (FileManager.default.subpaths(atPath: folder.path) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        return try files.flatMap { file in
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            return DocumentationBlocks(markdown: markdown(ofDocumentationCommentsIn: source)).swift.map { (file, $0.text) }
        }
    }

    /// Whether `source` holds `block` line for line, every non-empty line of the block
    /// preceded by the same indentation (a sample inside a function body); empty lines
    /// match lines with nothing but spaces.
    public static func source(_ source: String, contains block: String) -> Bool {
        let wanted = block.split(separator: "\n", omittingEmptySubsequences: false)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = wanted.first, !first.isEmpty, wanted.count <= lines.count else { return false }
        for start in 0...(lines.count - wanted.count) where lines[start].hasSuffix(first) {
            let indentation = lines[start].dropLast(first.count)
            guard indentation.allSatisfy({ $0 == " " }) else { continue }
            let matches = zip(wanted, lines[start...]).allSatisfy { expected, line in
                expected.isEmpty ? line.allSatisfy { $0 == " " } : line == indentation + expected
            }
            if matches { return true }
        }
        return false
    }
}
