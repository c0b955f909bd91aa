/// The padding of CBC encryption in PKCS#12 (PKCS #5 / RFC 8018 section 6.1.1): 1 to
/// block-size bytes, each holding the count. One check serves AES and the legacy ciphers.
enum CBCPadding {
    /// The plaintext without its padding, or nil when the padding is not well formed, which
    /// after decryption almost always means a wrong key.
    static func remove(from padded: [UInt8], blockByteCount: Int) -> [UInt8]? {
        guard let last = padded.last, last > 0, Int(last) <= blockByteCount, Int(last) <= padded.count,
              padded.suffix(Int(last)).allSatisfy({ $0 == last })
        else { return nil }
        return Array(padded.dropLast(Int(last)))
    }

    static func add(to plaintext: [UInt8], blockByteCount: Int) -> [UInt8] {
        let count = blockByteCount - plaintext.count % blockByteCount
        return plaintext + [UInt8](repeating: UInt8(count), count: count)
    }
}
