/// Bounds checked before any work is done, so that a hostile or damaged file cannot make
/// the reader spend minutes of CPU or unbounded memory (as keychain archives bound scrypt).
/// Real files are far inside them: OpenSSL and Apple use 2,048 iterations and a few
/// kilobytes.
package enum PKCS12Limits {
    /// The largest file read: a few certificates and keys take kilobytes.
    package static let maximumFileSize = 16 << 20
    /// The most iterations one key derivation (PBKDF2 or the PKCS#12 KDF) may ask for: far
    /// above what any tool writes (OpenSSL and Apple 2,048, password guidance for PBKDF2 some
    /// hundred thousand), far below minutes of work.
    package static let maximumIterations = 1_000_000
    /// The most iterations all the derivations of one file may ask for together: the MAC,
    /// and each encrypted part once per block of key and IV its scheme derives.
    package static let maximumTotalIterations = 8_000_000
    /// The most safe bags in one file, nested ones included.
    package static let maximumBags = 10_000
    /// The deepest nesting of safe-contents bags.
    package static let maximumNesting = 4
}

/// The iterations one file has asked for so far, against ``PKCS12Limits``.
struct PKCS12WorkBudget {
    private(set) var spentIterations = 0

    /// Records a derivation of `iterations` before it runs; throws if it is over a bound.
    mutating func spend(iterations: Int, for purpose: String) throws(PKCS12Failure) {
        guard iterations >= 1 else { throw .malformed("\(purpose) has an iteration count below 1") }
        guard iterations <= PKCS12Limits.maximumIterations else {
            throw .exceedsBound("\(purpose) asks for \(iterations) iterations, more than \(PKCS12Limits.maximumIterations)")
        }
        guard spentIterations + iterations <= PKCS12Limits.maximumTotalIterations else {
            throw .exceedsBound("the file's key derivations ask for more than \(PKCS12Limits.maximumTotalIterations) iterations in all")
        }
        spentIterations += iterations
    }
}
