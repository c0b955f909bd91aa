import CommonCrypto
import Testing

@Suite struct RandomTests {
    /// Bytes come out filled and different each call; bad calls get kCCParamError.
    @Test func generatesBytes() {
        var first = [UInt8](repeating: 0, count: 37), second = [UInt8](repeating: 0, count: 37)
        #expect(CCRandomGenerateBytes(&first, first.count) == kCCSuccess)
        #expect(CCRandomGenerateBytes(&second, second.count) == kCCSuccess)
        #expect(first != second)
        #expect(first != [UInt8](repeating: 0, count: 37))
        // Every byte position is written: 37 bytes stay zero by chance with negligible probability.
        var many = [UInt8](repeating: 0, count: 4096)
        #expect(CCRandomGenerateBytes(&many, many.count) == kCCSuccess)
        #expect(Set(many).count > 200)
        #expect(CCRandomGenerateBytes(nil, 16) == kCCParamError)
        #expect(CCRandomGenerateBytes(nil, 0) == kCCSuccess)
    }
}
