import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension SystemCall {
    /// Reads `descriptor` into `buffer` from its start, read after read, until the end of
    /// input, a full buffer, a failed read, or `isComplete` says the bytes read so far hold
    /// all that is wanted (it is given them and the range the last read added: a line
    /// reader looks for its newline there). The count read, and the failure that stopped it,
    /// if one did (the bytes read before it stay in `buffer`).
    ///
    /// The buffer is the bound: no input, however long (`/dev/zero`), reads past it.
    package static func fill(
        _ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32,
        until isComplete: (_ filled: UnsafeRawBufferPointer, _ added: Range<Int>) -> Bool = { _, _ in false }
    ) -> (count: Int, failure: SystemCallError?) {
        var count = 0
        while count < buffer.count {
            switch read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])) {
            case .failure(let error): return (count, error)
            case .success(0): return (count, nil)
            case .success(let added):
                count += added
                if isComplete(UnsafeRawBufferPointer(rebasing: buffer[..<count]), (count - added)..<count) {
                    return (count, nil)
                }
            }
        }
        return (count, nil)
    }

    /// The bytes of `descriptor` up to its end or `count` bytes, whichever comes first, or
    /// up to the moment `isComplete` says the bytes read so far are whole. To refuse an
    /// input longer than a limit, ask for one byte more than the limit and check the count.
    ///
    /// The input may be a secret (a key file, a password on standard input): the buffer it
    /// is read into is zeroed once the bytes are copied out, and on a failure.
    package static func read(
        _ descriptor: Int32, atMost count: Int,
        until isComplete: (_ filled: UnsafeRawBufferPointer) -> Bool = { _ in false }
    ) -> Result<Data, SystemCallError> {
        var bytes = [UInt8](repeating: 0, count: count)
        defer { bytes.zeroize() }
        let read = bytes.withUnsafeMutableBytes { fill($0, from: descriptor) { filled, _ in isComplete(filled) } }
        if let failure = read.failure { return .failure(failure) }
        return .success(Data(bytes[..<read.count]))
    }
}
