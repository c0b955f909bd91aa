import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Bytes of key material that the library holds between calls (the unlocked class keys as
/// the key cache stores them): kept out of swap where the system allows it (`mlock`, best
/// effort: the user's locked-memory limit may refuse it) and zeroed when released, so that
/// they do not linger in freed memory. Swift's arrays and `Data` may be copied and freed
/// anywhere without either.
package final class SecretBytes: @unchecked Sendable, Equatable {
    private let base: UnsafeMutableRawPointer
    /// What was allocated: at least one byte, so that `base` is a real allocation.
    private let capacity: Int
    /// Whether `mlock` kept the bytes out of swap.
    package let isLocked: Bool

    /// `count` zero bytes, which `fill` may write.
    package init(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Void = { _ in }) {
        capacity = max(count, 1)
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        isLocked = mlock(base, capacity) == 0
        self.count = count
        fill(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// A copy of `bytes`.
    package convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count) { $0.copyMemory(from: bytes) }
    }

    package let count: Int

    package func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    deinit {
        explicit_bzero(base, capacity)
        if isLocked { munlock(base, capacity) }
        base.deallocate()
    }

    package static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        lhs.count == rhs.count && memcmp(lhs.base, rhs.base, lhs.count) == 0
    }
}

extension SecretBytes: ExpressibleByArrayLiteral {
    package convenience init(arrayLiteral elements: UInt8...) {
        self.init(count: elements.count) { buffer in buffer.copyBytes(from: elements) }
    }
}

extension Data {
    /// Overwrites the bytes with zeros in place, where this value alone holds them: for
    /// plaintexts the library made and is done with (a key being wrapped, a record being
    /// sealed again).
    package mutating func zeroize() {
        resetBytes(in: startIndex..<endIndex)
    }
}

extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros in place, as ``Foundation/Data/zeroize()`` does: for
    /// decrypted key material and derived keys held as byte arrays.
    package mutating func zeroize() {
        withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}
