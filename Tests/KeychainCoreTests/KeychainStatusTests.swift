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

    @Test("no two entries of the table share a code or a name, and each has a message")
    func codesAreUniqueAndHaveMessages() {
        #expect(Set(KeychainStatus.all.map(\.code)).count == KeychainStatus.all.count)
        #expect(Set(KeychainStatus.all.map(\.name)).count == KeychainStatus.all.count)
        for status in KeychainStatus.all {
            // Apple's messages, word for word: some end without a period, none is empty.
            #expect(!status.message.isEmpty && status.message.first?.isWhitespace == false, "\(status.code)")
            #expect(status.name.hasPrefix("errSec"), "\(status.code)")
            #expect(KeychainStatus.message(for: status.code) == status.message)
        }
        #expect(KeychainStatus.message(for: 12345) == nil)
    }

    @Test("the table holds every errSec code of Apple's SecBase.h, in the header's order")
    func tableIsSecBaseComplete() {
        // 380 constants in SecBase.h's errSec enumeration, not counting the three deprecated
        // aliases (errSecDskFull, errSecInvaldCRLAuthority, errSecInvalidTupleCredendtials),
        // then errSecInternal of Apple's private header, which public calls return.
        #expect(KeychainStatus.all.count == 381)
        #expect(KeychainStatus.all.first?.name == "errSecSuccess")
        #expect(KeychainStatus.all[379].name == "errSecCertificateDuplicateExtension")
        #expect(KeychainStatus.all[379].code == -67903)
        #expect(KeychainStatus.all.last?.name == "errSecInternal")
        // The CSSM-derived block runs without a gap from -67585 to -67903.
        let cssm = KeychainStatus.all.filter { (-67903)...(-67585) ~= $0.code }.map(\.code)
        #expect(cssm == Array(stride(from: Int32(-67585), through: -67903, by: -1)))
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
