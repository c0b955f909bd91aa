// DES and Triple DES on 8-byte blocks: BoringSSL's DES, the one that swift-crypto builds and
// ships (it has no Swift API for DES, so through its C module). For reading legacy PKCS #12
// files (Security) and for CommonCrypto's kCCAlgorithmDES and kCCAlgorithm3DES.
// Implementation-only, as swift-crypto imports it: code of other packages that loads Security
// (`#if canImport(Security)`), and so this module, is not given BoringSSL's module map.
@_implementationOnly import CCryptoBoringSSL

/// DES-EDE3 (three keys), DES-EDE2 (two keys, the third being the first) or single DES (one
/// key: EDE under one key is DES) on 8-byte blocks. Its key schedules are zeroed when it is
/// released.
package final class TripleDES {
    package static let blockByteCount = 8

    /// The key schedules of K1, K2 and K3.
    private var schedules = (DES_key_schedule(), DES_key_schedule(), DES_key_schedule())

    /// `key` is 24 bytes (K1 K2 K3), 16 bytes (K1 K2, with K3 = K1) or 8 bytes (K1 = K2 =
    /// K3: single DES); nil for any other length. The parity bits are ignored, as every
    /// implementation does.
    package init?(key: [UInt8]) {
        guard [8, 16, 24].contains(key.count) else { return nil }
        Self.schedule(key, at: 0, into: &schedules.0)
        Self.schedule(key, at: key.count == 8 ? 0 : 8, into: &schedules.1)
        Self.schedule(key, at: key.count == 24 ? 16 : 0, into: &schedules.2)
    }

    deinit {
        withUnsafeMutableBytes(of: &schedules) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// P = D_K1(E_K2(D_K3(C))).
    package func decrypt(block: UInt64) -> UInt64 {
        crypt(block, direction: DES_DECRYPT)
    }

    /// C = E_K3(D_K2(E_K1(P))).
    package func encrypt(block: UInt64) -> UInt64 {
        crypt(block, direction: DES_ENCRYPT)
    }

    private func crypt(_ block: UInt64, direction: Int32) -> UInt64 {
        var input = DES_cblock(), output = DES_cblock()
        withUnsafeMutableBytes(of: &input) { bytes in
            for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: block >> UInt64(56 - 8 * index)) }
        }
        CCryptoBoringSSL_DES_ecb3_encrypt(&input, &output, &schedules.0, &schedules.1, &schedules.2, direction)
        let result = withUnsafeBytes(of: output) { bytes in bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        withUnsafeMutableBytes(of: &input) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        withUnsafeMutableBytes(of: &output) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        return result
    }

    /// The schedule of the 8-byte DES key at `offset` of `key`.
    private static func schedule(_ key: [UInt8], at offset: Int, into schedule: inout DES_key_schedule) {
        var block = DES_cblock()
        withUnsafeMutableBytes(of: &block) { $0.copyBytes(from: key[offset..<offset + 8]) }
        CCryptoBoringSSL_DES_set_key_unchecked(&block, &schedule)
        withUnsafeMutableBytes(of: &block) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}
