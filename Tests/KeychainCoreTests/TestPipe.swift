import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KeychainCore
import Testing

/// A pipe for the system-call suites, and what a write-all failed with.
enum TestPipe {
    /// A new pipe's read and write ends; the test closes them.
    static func ends() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    /// The errno a write-all failed with, nil when it wrote everything.
    static func failure(_ written: Result<Void, SystemCallError>) -> Int32? {
        if case .failure(let error) = written { return error.code }
        return nil
    }
}
