#if canImport(Glibc)
import Glibc
#endif

/// The system calls the package makes on descriptors, each wrapped once: a call interrupted
/// by a signal (EINTR) is made again here, and a failure is returned with its errno, read
/// right after the call, before anything else can change it. Callers never loop on EINTR
/// or read `errno` themselves.
///
/// Nothing here waits for a descriptor that is not ready (EAGAIN): a non-blocking
/// descriptor that is not ready is a failure, as it was for every caller.
package enum SystemCall {
    /// One read(2) into `buffer`: the count read, 0 at the end of input.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemCallError> {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(0) }
        return retryingInterruptions { Glibc.read(descriptor, base, buffer.count) }
    }

    /// One byte of `descriptor`, nil at its end or on a failed read: for readers that must
    /// consume nothing past what they want (a line typed on a terminal).
    package static func readByte(_ descriptor: Int32) -> UInt8? {
        var byte: UInt8 = 0
        guard case .success(1) = withUnsafeMutableBytes(of: &byte, { read(descriptor, into: $0) }) else { return nil }
        return byte
    }

    /// One write(2) of `buffer`: the count written, which may be less than all of it.
    package static func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, SystemCallError> {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(0) }
        return retryingInterruptions { Glibc.write(descriptor, base, buffer.count) }
    }

    /// Makes `call` (a system call returning -1 and setting errno on failure) again while it
    /// is interrupted by a signal; its result, or the errno of its failure.
    private static func retryingInterruptions(_ call: () -> Int) -> Result<Int, SystemCallError> {
        while true {
            let result = call()
            if result >= 0 { return .success(result) }
            let code = errno
            if code != EINTR { return .failure(SystemCallError(code: code)) }
        }
    }
}

/// A failed system call's errno.
package struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The errno value (EPIPE, EIO, EISDIR...).
    package let code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// The system's text for the error (strerror), as the package's messages show it.
    package var description: String { String(cString: strerror(code)) }
}
