import CommonCrypto
// CommonRandom: cryptographically secure random bytes.

/// Fills `count` bytes at `bytes` with cryptographically secure random bytes from the
/// system's generator (getrandom on Linux). Returns ``kCCSuccess``, or ``kCCParamError`` for
/// a null pointer with a nonzero count.
@_cdecl("CCRandomGenerateBytes")
func exportedCCRandomGenerateBytes(_ bytes: UnsafeMutableRawPointer!, _ count: Int) -> CCRNGStatus {
    if count == 0 { return status(kCCSuccess) }
    guard let bytes, count > 0 else { return status(kCCParamError) }
    var generator = SystemRandomNumberGenerator()
    let buffer = UnsafeMutableRawBufferPointer(start: bytes, count: count)
    var offset = 0
    while offset < count {
        var word = generator.next()
        let chunk = min(MemoryLayout<UInt64>.size, count - offset)
        withUnsafeBytes(of: &word) { buffer.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: chunk) }
        word = 0
        offset += chunk
    }
    return status(kCCSuccess)
}
