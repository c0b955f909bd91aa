import ArgumentParser
import Foundation

/// A four-character code such as `htps` or `dflt`, as `security` takes for creators, types,
/// protocols and authentication types: exactly four bytes.
struct FourCharCode: ExpressibleByArgument {
    let text: String

    init?(argument: String) {
        guard argument.utf8.count == 4 else { return nil }
        text = argument
    }

    /// The code as the number Apple's API takes for kSecAttrCreator and kSecAttrType: the
    /// four bytes read big-endian, so `aapl` prints back as "aapl".
    var number: NSNumber {
        NSNumber(value: text.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }
}
