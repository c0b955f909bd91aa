/// A Keychain Services status: its code, its name in Apple's `SecBase.h` and the message
/// `SecCopyErrorMessageString` gives for it, as on Apple platforms.
///
/// The one table of them (``all``): the core's errors take their codes from it, `Security`
/// defines its `errSec...` constants and messages from it, and keychainctl prints them
/// through `Security`. The table is generated, with Security's constants, from
/// `Scripts/keychain-statuses.tsv` by `Scripts/generate-status-table`. It holds every
/// `errSec...` code of `SecBase.h`, in the header's order, with the header's message for it
/// (the comments Apple's `SecErrorMessages.strings` is made from), word for word: some of
/// Apple's messages end without a period.
package struct KeychainStatus: Sendable, Hashable {
    /// The `OSStatus` code.
    package let code: Int32
    /// The constant's name in `SecBase.h`, such as `errSecItemNotFound`.
    package let name: String
    /// The message, Apple's sentence for the code.
    package let message: String

    // Internal so that the generated table (KeychainStatus+Table.swift) can make them; no
    // other code does: a status is one of the table's.
    init(_ name: String, _ code: Int32, _ message: String) {
        self.name = name
        self.code = code
        self.message = message
    }

    private static let messages = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0.message) })

    /// The message of a code of the table; nil for any other code.
    package static func message(for code: Int32) -> String? { messages[code] }
}
