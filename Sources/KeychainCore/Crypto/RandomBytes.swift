import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random bytes from the operating system's CSPRNG (`getentropy`, which is `getrandom`).
///
/// A write needs a row nonce and two AES-GCM nonces. Drawn one by one (Swift's
/// SystemRandomNumberGenerator and swift-crypto's default nonces each make a `getrandom`
/// call per 8 bytes), that was five system calls per add, a few microseconds on this
/// virtual machine (strace); `getentropy` draws up to 256 bytes in one. `SecRandomCopyBytes`
/// fills its caller's buffers through the same function.
package enum RandomBytes {
    /// The most `getentropy` gives in one call.
    private static let chunk = 256

    /// Fills `buffer` with random bytes, in calls of at most 256 bytes; an empty buffer is
    /// left as it is. Returns false, with the buffer's contents unspecified, if the system
    /// refuses (a kernel without `getrandom`).
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let length = min(chunk, buffer.count - offset)
            guard getentropy(base + offset, length) == 0 else { return false }
            offset += length
        }
        return true
    }

    static func draw(_ count: Int) -> [UInt8] {
        precondition(count <= chunk, "a draw is for nonces and salts; fill larger buffers")
        var bytes = [UInt8](repeating: 0, count: count)
        // It fails only on a kernel without getrandom, where the store cannot be used safely.
        precondition(bytes.withUnsafeMutableBytes { fill($0) }, "getentropy failed")
        return bytes
    }
}
