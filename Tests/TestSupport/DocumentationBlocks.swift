import Foundation

/// The fenced code blocks of Markdown documents, for the tests that check that every
/// documented sample is code the tests compile: each sample lives as a function in a test
/// file, and a test checks that each block of the document appears there.
public enum DocumentationBlocks {
    /// The blocks fenced with ```` ```language ```` in `markdown`, in order, each without its
    /// fences and without the fence's own indentation (a block inside a list item).
    public static func blocks(language: String = "swift", in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        var indentation = 0
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop(while: { $0 == " " })
            if var lines = current {
                if trimmed == "```" {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else {
                    lines.append(line.dropFirst(min(indentation, line.count - trimmed.count)))
                    current = lines
                }
            } else if trimmed == "```\(language)" {
                indentation = line.count - trimmed.count
                current = []
            }
        }
        return blocks
    }

    /// The blocks of a Markdown file; see ``blocks(language:in:)``.
    public static func blocks(language: String = "swift", inFileAt url: URL) throws -> [String] {
        try blocks(language: language, in: String(contentsOf: url, encoding: .utf8))
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
