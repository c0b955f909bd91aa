import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pads what is sealed to a size class, so that the stored length of a secret or of a
/// record's attributes tells an attacker with the files only its class, not its length.
///
/// The classes are 32, 64, 128, ... 4096 bytes, then whole multiples of 4096. The padding is
/// ISO/IEC 7816-4's: one 0x80 byte, then zeros; so a plaintext of n bytes takes the smallest
/// class of at least n + 1 bytes. A 12-byte password and a 30-byte one both store 32 bytes.
enum SizeClassPadding {
    static let smallestClass = 32
    static let largestDoublingClass = 4096

    /// The size class of a plaintext of `count` bytes.
    static func paddedCount(_ count: Int) -> Int {
        let needed = count + 1
        if needed > largestDoublingClass {
            return (needed + largestDoublingClass - 1) / largestDoublingClass * largestDoublingClass
        }
        var size = smallestClass
        while size < needed { size *= 2 }
        return size
    }

    /// Writes `count` bytes with `write`, pads them to their size class in the same
    /// temporary buffer and hands that to `use`, then zeroes the buffer: a sealed part's
    /// plaintext takes no allocation or copy of its own (the record's byte form is written
    /// straight into it).
    static func withPadded<R>(count: Int, _ write: (inout ByteWriter) -> Void,
                              _ use: (UnsafeRawBufferPointer) throws(KeychainError) -> R) throws(KeychainError) -> R {
        let size = paddedCount(count)
        let result = withUnsafeTemporaryAllocation(byteCount: size, alignment: 1) { buffer -> Result<R, KeychainError> in
            // Zeroed before the memory is given back, whatever `use` did.
            defer { if let base = buffer.baseAddress { explicit_bzero(base, size) } }
            ByteWriter.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]), write)
            buffer[count] = 0x80
            UnsafeMutableRawBufferPointer(rebasing: buffer[(count + 1)...]).initializeMemory(as: UInt8.self, repeating: 0)
            do throws(KeychainError) {
                return .success(try use(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The plaintext; errSecDecode when the padding is not well formed (only a bug can make
    /// that happen: what is unpadded was authenticated first).
    static func unpad(_ padded: Data) throws(KeychainError) -> Data {
        // Scanned through a pointer: `Data`'s subscript, called once per byte from the end,
        // checks exclusive access to its storage at each byte (a sixth of opening a secret).
        let marker = padded.withUnsafeBytes { bytes -> Int? in
            var index = bytes.count
            while index > 0 {
                index -= 1
                if bytes[index] != 0 { return bytes[index] == 0x80 ? index : nil }
            }
            return nil
        }
        guard let marker else { throw .decode }
        return padded[padded.startIndex..<(padded.startIndex + marker)]
    }
}
