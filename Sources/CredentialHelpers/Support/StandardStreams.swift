import Foundation
import Security
#if canImport(Glibc)
import Glibc
#endif

/// Standard input and output through read(2) and write(2): Foundation's FileHandle traps on
/// an I/O error, and a credential helper's input must be read to a bound, never without
/// limit (an endless `/dev/zero` must end in an error, not in memory exhaustion).
package enum StandardStreams {
    /// The most a helper reads: git's and Docker's requests are a few hundred bytes, an
    /// OAuth or registry token a few KiB.
    package static let requestLimit = 256 * 1024

    /// Gives each closed standard descriptor to `/dev/null`; call first thing in `main`.
    ///
    /// A closed descriptor 1 would be the number the next `open` returns: a file the library
    /// opens would become "standard output", and the answer, a password, would be written
    /// into it. A closed standard input then reads as empty, and a closed standard output
    /// takes the answer nowhere.
    package static func occupyClosedDescriptors() {
        DescriptorIO.occupyClosedStandardDescriptors()
    }

    /// Standard input up to its end, or up to the moment `isComplete` says the bytes read so
    /// far hold a whole request (git's blank line), so that a caller that keeps the pipe open
    /// does not make the helper wait. More than `limit` bytes is an error.
    package static func readInput(limit: Int, isComplete: (Data) -> Bool = { _ in false }) throws(HelperFailure) -> Data {
        // One byte more than the limit tells an input past it.
        let read = DescriptorIO.read(STDIN_FILENO, atMost: limit + 1) { filled in
            // A view of the bytes read so far, not a copy that would outlive the zeroed buffer.
            filled.baseAddress.map {
                isComplete(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: filled.count, deallocator: .none))
            } ?? false
        }
        switch read {
        case .failure(let error):
            throw HelperFailure("cannot read standard input: \(String(cString: strerror(error.code.rawValue)))")
        case .success(var input):
            guard input.count <= limit else {
                input.resetBytes(in: 0..<input.count)
                throw HelperFailure("the input is larger than \(limit / 1024) KiB, more than a credential request holds")
            }
            return input
        }
    }

    /// Writes all of `bytes` to standard output; false when it could not (a closed pipe).
    @discardableResult
    package static func writeOutput(_ bytes: Data) -> Bool {
        DescriptorIO.writeAll(bytes, to: STDOUT_FILENO) == nil
    }

    /// Writes a line to standard error.
    package static func writeError(_ line: String) {
        _ = DescriptorIO.writeAll(Data((line + "\n").utf8), to: STDERR_FILENO)
    }
}
