import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random bytes from the operating system, as many as a write needs in one call.
///
/// A write needs a row nonce and two AES-GCM nonces. Drawn one by one (Swift's
/// SystemRandomNumberGenerator and swift-crypto's default nonces each make a `getrandom`
/// call per 8 bytes), that was five system calls per add, a few microseconds on this
/// virtual machine (strace); `getentropy` draws up to 256 bytes in one.
enum RandomBytes {
    static func draw(_ count: Int) -> [UInt8] {
        precondition(count <= 256, "getentropy gives at most 256 bytes a call")
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { getentropy($0.baseAddress!, $0.count) }
        // It fails only for more than 256 bytes or a bad pointer, neither possible here.
        precondition(result == 0, "getentropy failed")
        return bytes
    }
}
