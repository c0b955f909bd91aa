import Foundation
import Security
import Testing

/// SecRandomCopyBytes: Apple's signature, `errSecSuccess`, and buffers filled from the
/// system's CSPRNG, whatever their size.
@Suite("SecRandomCopyBytes")
struct SecRandomTests {
    @Test("Apple's signature and kSecRandomDefault compile as Apple code writes them")
    func appleSignature() {
        let copyBytes: (SecRandomRef?, Int, UnsafeMutableRawPointer) -> Int32 = SecRandomCopyBytes
        var key = [UInt8](repeating: 0, count: 32)
        #expect(copyBytes(kSecRandomDefault, key.count, &key) == errSecSuccess)
        var data = Data(count: 16)
        let status = data.withUnsafeMutableBytes { buffer in
            SecRandomCopyBytes(kSecRandomDefault, buffer.count, buffer.baseAddress!)
        }
        #expect(status == errSecSuccess)
        #expect(kSecRandomDefault == nil)
    }

    @Test("fills the whole buffer: 64 bytes are not left zero")
    func fills() {
        // Each byte is zero with probability 1/256; 64 of them all zero, 2^-512.
        var bytes = [UInt8](repeating: 0, count: 64)
        #expect(SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) == errSecSuccess)
        #expect(bytes.contains { $0 != 0 })
        // Its last bytes too (a short fill would leave them zero).
        #expect(bytes[48...].contains { $0 != 0 })
    }

    @Test("two calls give different bytes")
    func differsBetweenCalls() {
        var first = [UInt8](repeating: 0, count: 32)
        var second = [UInt8](repeating: 0, count: 32)
        #expect(SecRandomCopyBytes(kSecRandomDefault, first.count, &first) == errSecSuccess)
        #expect(SecRandomCopyBytes(kSecRandomDefault, second.count, &second) == errSecSuccess)
        #expect(first != second)
    }

    @Test("count 0 succeeds and writes nothing")
    func countZero() {
        var bytes = [UInt8](repeating: 0xA5, count: 8)
        #expect(SecRandomCopyBytes(kSecRandomDefault, 0, &bytes) == errSecSuccess)
        #expect(bytes == [UInt8](repeating: 0xA5, count: 8))
    }

    @Test("a negative count is errSecParam and writes nothing")
    func negativeCount() {
        var bytes = [UInt8](repeating: 0xA5, count: 8)
        #expect(SecRandomCopyBytes(kSecRandomDefault, -1, &bytes) == errSecParam)
        #expect(bytes == [UInt8](repeating: 0xA5, count: 8))
    }

    @Test("a large buffer (1 MiB and 3 bytes, past the system's 256-byte draws) is filled evenly and only it")
    func largeCount() {
        let count = (1 << 20) + 3
        // Guard bytes after the buffer: the fill must stop at count.
        var bytes = [UInt8](repeating: 0, count: count + 16)
        bytes.replaceSubrange(count..., with: [UInt8](repeating: 0x5A, count: 16))
        #expect(SecRandomCopyBytes(kSecRandomDefault, count, &bytes) == errSecSuccess)
        #expect(bytes[count...].allSatisfy { $0 == 0x5A })
        // Every 256-byte stretch was written (an unwritten one stays zero: 2^-2048 otherwise).
        for start in stride(from: 0, to: count, by: 256) {
            #expect(bytes[start..<min(start + 256, count)].contains { $0 != 0 }, "stretch at \(start)")
        }
        // Byte values are uniform: chi-squared with 255 degrees of freedom is below 400
        // except with probability under 1e-8 for a uniform source; a biased or repeating
        // fill exceeds it by far.
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes[..<count] { counts[Int(byte)] += 1 }
        let expected = Double(count) / 256
        let chiSquared = counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        #expect(chiSquared < 400, "chi-squared \(chiSquared)")
    }
}
