/// Byte comparison whose running time does not depend on the bytes.
enum ConstantTimeComparison {
    /// Whether two byte sequences are equal, looking at every byte of both.
    ///
    /// An ordinary `==` stops at the first difference, so how long a failed guess takes
    /// tells an attacker how many leading bytes were right. This loop has no early exit and
    /// no branch on the data: its time depends only on the two lengths, which it compares
    /// as part of the result rather than first.
    static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        let left = Array(lhs)
        let right = Array(rhs)
        let length = max(left.count, right.count)
        var difference = UInt(bitPattern: left.count ^ right.count)
        for index in 0..<length {
            // Past the end of the shorter side, compare against 0: the lengths already differ.
            let leftByte = index < left.count ? left[index] : 0
            let rightByte = index < right.count ? right[index] : 0
            difference |= UInt(leftByte ^ rightByte)
        }
        return difference == 0
    }
}
