@testable import KeychainCore
import Testing

/// The one table of status codes and messages that the core's errors, Security's `errSec...`
/// constants and `SecCopyErrorMessageString` all read.
@Suite struct KeychainStatusTests {
    /// Every case of the error, with a placeholder where it carries a reason.
    static let everyError: [KeychainError] = [
        .param("p"), .noSuchAttribute("x"), .noSuchClass, .duplicateItem, .itemNotFound,
        .missingEntitlement(group: "g"), .decode, .notAvailable("n"), .wrongVersion(9),
        .unimplemented("u"), .interactionNotAllowed, .authFailed, .noSuchKeychain,
        .duplicateKeychain, .readOnly, .diskFull, .io("i"),
    ]

    @Test("no two entries of the table share a code, and each has a message")
    func codesAreUniqueAndHaveMessages() {
        #expect(Set(KeychainStatus.all.map(\.code)).count == KeychainStatus.all.count)
        for status in KeychainStatus.all {
            #expect(!status.message.isEmpty && status.message.hasSuffix("."), "\(status.code)")
            #expect(KeychainStatus.message(for: status.code) == status.message)
        }
        #expect(KeychainStatus.message(for: 12345) == nil)
    }

    @Test("every error's status is an entry of the table, and distinct errors have distinct statuses")
    func everyErrorHasATableEntry() {
        for error in Self.everyError {
            #expect(KeychainStatus.all.contains(error.keychainStatus), "\(error)")
            #expect(error.status == error.keychainStatus.code)
        }
        #expect(Set(Self.everyError.map(\.status)).count == Self.everyError.count)
    }
}
