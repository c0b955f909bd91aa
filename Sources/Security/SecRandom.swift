import Foundation
@_implementationOnly import KeychainCore

/// A source of random numbers. There is one, the system's, named by ``kSecRandomDefault``;
/// as on Apple platforms, it is an opaque pointer that is nil.
public typealias SecRandomRef = OpaquePointer

/// The default source of random numbers: the system's cryptographically secure generator.
nonisolated(unsafe) public let kSecRandomDefault: SecRandomRef? = nil

/// Fills a buffer with cryptographically secure random bytes, as on Apple platforms.
///
/// The bytes come from the kernel's CSPRNG (`getrandom`), the source swift-crypto and the
/// keychain's own keys use.
///
/// ```swift
/// var key = [UInt8](repeating: 0, count: 32)
/// let status = SecRandomCopyBytes(kSecRandomDefault, key.count, &key)
/// ```
///
/// - Parameters:
///   - rnd: The source: pass ``kSecRandomDefault`` (any value means the system's source).
///   - count: How many bytes to write; 0 writes none and succeeds.
///   - bytes: Where to write them; at least `count` bytes.
/// - Returns: `errSecSuccess`; `errSecParam` for a negative count; `errSecInternalComponent`
///   if the system gives no random bytes (a kernel without `getrandom`), with the buffer's
///   contents unspecified.
@discardableResult // As Swift imports C functions on Apple platforms: callers may ignore the status.
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count >= 0 else { return errSecParam }
    let buffer = UnsafeMutableRawBufferPointer(start: bytes, count: count)
    return RandomBytes.fill(buffer) ? errSecSuccess : errSecInternalComponent
}
