import Foundation

extension Data {
    /// A string's UTF-8 bytes, copied in one piece.
    ///
    /// What `Data(string.utf8)` would give, without `Data`'s generic sequence initializer:
    /// that one copies byte by byte (measured: most of a canonical attribute value's cost, on
    /// every add) and asks the run time whether `String.UTF8View` is `ContiguousBytes`, whose
    /// first asking in a process scans every protocol-conformance record of the program (1%
    /// of a fresh `keychainctl find`'s instructions).
    init(utf8Of string: String) {
        var string = string
        self = string.withUTF8 { Data(buffer: $0) }
    }
}
