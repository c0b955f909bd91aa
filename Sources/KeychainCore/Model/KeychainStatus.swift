/// A Keychain Services status: its code and the message `SecCopyErrorMessageString` gives
/// for it, as on Apple platforms.
///
/// The one table of them: the core's errors take their codes from it, `Security` defines its
/// `errSec...` constants and messages from it, and keychainctl prints them through
/// `Security`.
package struct KeychainStatus: Sendable, Hashable {
    /// The `OSStatus` code.
    package let code: Int32
    /// The message, a sentence ending with a period.
    package let message: String

    /// `errSecSuccess`.
    package static let success = KeychainStatus(code: 0, message: "No error.")
    /// `errSecUnimplemented`.
    package static let unimplemented = KeychainStatus(code: -4, message: "Function or operation not implemented.")
    /// `errSecDiskFull`.
    package static let diskFull = KeychainStatus(code: -34, message: "The disk is full.")
    /// `errSecIO`.
    package static let io = KeychainStatus(code: -36, message: "I/O error.")
    /// `errSecParam`.
    package static let param = KeychainStatus(code: -50, message: "One or more parameters passed to a function were not valid.")
    /// `errSecAllocate`.
    package static let allocate = KeychainStatus(code: -108, message: "Failed to allocate memory.")
    /// `errSecUserCanceled`.
    package static let userCanceled = KeychainStatus(code: -128, message: "User canceled the operation.")
    /// `errSecNotAvailable`.
    package static let notAvailable = KeychainStatus(code: -25291, message: "No keychain is available. You may need to restart your computer.")
    /// `errSecReadOnly`.
    package static let readOnly = KeychainStatus(code: -25292, message: "This keychain cannot be modified.")
    /// `errSecAuthFailed`.
    package static let authFailed = KeychainStatus(code: -25293, message: "The user name or passphrase you entered is not correct.")
    /// `errSecNoSuchKeychain`.
    package static let noSuchKeychain = KeychainStatus(code: -25294, message: "The specified keychain could not be found.")
    /// `errSecInvalidKeychain`.
    package static let invalidKeychain = KeychainStatus(code: -25295, message: "The specified keychain is not a valid keychain file.")
    /// `errSecDuplicateKeychain`.
    package static let duplicateKeychain = KeychainStatus(code: -25296, message: "A keychain with the same name already exists.")
    /// `errSecDuplicateItem`.
    package static let duplicateItem = KeychainStatus(code: -25299, message: "The specified item already exists in the keychain.")
    /// `errSecItemNotFound`.
    package static let itemNotFound = KeychainStatus(code: -25300, message: "The specified item could not be found in the keychain.")
    /// `errSecDataTooLarge`.
    package static let dataTooLarge = KeychainStatus(code: -25302, message: "This item contains information which is too large or in a format that cannot be displayed.")
    /// `errSecNoSuchAttr`.
    package static let noSuchAttribute = KeychainStatus(code: -25303, message: "The specified attribute does not exist.")
    /// `errSecNoSuchClass`.
    package static let noSuchClass = KeychainStatus(code: -25306, message: "The specified item does not appear to be a valid keychain item.")
    /// `errSecInteractionNotAllowed`.
    package static let interactionNotAllowed = KeychainStatus(code: -25308, message: "User interaction is not allowed.")
    /// `errSecWrongSecVersion`.
    package static let wrongVersion = KeychainStatus(code: -25310, message: "This keychain was created by a different version of the system software and cannot be opened.")
    /// `errSecDecode`.
    package static let decode = KeychainStatus(code: -26275, message: "Unable to decode the provided data.")
    /// `errSecInternal`.
    package static let internalError = KeychainStatus(code: -26276, message: "An internal error occurred in the Security framework.")
    /// `errSecMissingEntitlement`.
    package static let missingEntitlement = KeychainStatus(code: -34018, message: "A required entitlement isn't present.")

    /// Every status the library returns.
    package static let all: [KeychainStatus] = [
        .success,
        .unimplemented,
        .diskFull,
        .io,
        .param,
        .allocate,
        .userCanceled,
        .notAvailable,
        .readOnly,
        .authFailed,
        .noSuchKeychain,
        .invalidKeychain,
        .duplicateKeychain,
        .duplicateItem,
        .itemNotFound,
        .dataTooLarge,
        .noSuchAttribute,
        .noSuchClass,
        .interactionNotAllowed,
        .wrongVersion,
        .decode,
        .internalError,
        .missingEntitlement,
    ]

    private static let messages = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0.message) })

    /// The message of a code the library returns; nil for any other code.
    package static func message(for code: Int32) -> String? { messages[code] }
}
