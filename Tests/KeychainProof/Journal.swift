import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An append-only log of what a worker process did, one tab-separated line per event.
///
/// Each line is one `write(2)` to a file opened with `O_APPEND`, so a line the worker wrote
/// is in the kernel's hands before its next instruction: killing the process loses at most
/// the event it had not yet written. That is what makes the journal the record of
/// acknowledged operations that the verifiers check the keychain against.
///
/// Threads of one worker may share it: each append is that one `write(2)`.
public final class Journal: @unchecked Sendable {
    private let descriptor: CInt

    public init(appendingTo url: URL) throws(ProofFailure) {
        descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ProofFailure("cannot open the journal \(url.path)") }
    }

    deinit { close(descriptor) }

    public func append(_ fields: String...) {
        append(fields)
    }

    public func append(_ fields: [String]) {
        let line = Array((fields.joined(separator: "\t") + "\n").utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The complete lines of a journal, split into fields; a last line without its newline
    /// (cut short) is left out.
    public static func lines(of url: URL) -> [[String]] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        var text = String(decoding: data, as: UTF8.self)
        if let end = text.lastIndex(of: "\n") {
            text = String(text[...end])
        } else {
            return []
        }
        return text.split(separator: "\n").map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }
}

/// Why a proof run could not even be carried out (as opposed to a check that failed).
public struct ProofFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
