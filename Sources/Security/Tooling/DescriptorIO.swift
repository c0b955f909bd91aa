import Foundation
@_implementationOnly import KeychainCore

/// Reads and writes on descriptors for this package's tools (keychainctl, the credential
/// helpers), which are written against this module and not the core: the core's one
/// implementation of each loop (``SystemCall`` there), not a copy of it. Errors are errno
/// values, so that its users need not load the core.
package enum DescriptorIO {
    /// Writes every byte of `data` to `descriptor`, again after an interruption or a partial
    /// write; the errno of a failure, nil on success.
    package static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        switch SystemCall.writeAll(descriptor, data) {
        case .success: nil
        case .failure(let error): error.code
        }
    }

    /// The bytes of `descriptor` up to its end or `count` bytes, whichever comes first, or up
    /// to the moment `isComplete` says the bytes read so far are whole; the errno of a failed
    /// read. To refuse an input longer than a limit, ask for one byte more and check the
    /// count. The buffer read into is zeroed once the bytes are copied out.
    package static func read(_ descriptor: Int32, atMost count: Int,
                             until isComplete: (_ filled: UnsafeRawBufferPointer) -> Bool = { _ in false })
        -> Result<Data, POSIXError>
    {
        SystemCall.read(descriptor, atMost: count, until: isComplete)
            .mapError { POSIXError(POSIXErrorCode(rawValue: $0.code) ?? .EIO) }
    }

    /// One byte of `descriptor`, nil at its end or on a failed read: for a reader that must
    /// consume nothing past the line it wants.
    package static func readByte(_ descriptor: Int32) -> UInt8? {
        SystemCall.readByte(descriptor)
    }

    /// Gives each closed standard descriptor (0, 1, 2) to `/dev/null` and returns the ones
    /// that were closed; call first thing in `main`, before any file is opened. A closed
    /// one would be the number the next `open` returns, and a keychain's database would
    /// become standard input or output.
    @discardableResult
    package static func occupyClosedStandardDescriptors() -> [Int32] {
        StandardDescriptors.occupyClosedOnes()
    }
}
