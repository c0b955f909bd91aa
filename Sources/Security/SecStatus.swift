import Foundation

// The status codes of Keychain Services and the messages SecCopyErrorMessageString gives.

/// 0: No error.
public let errSecSuccess: OSStatus = 0
/// -4: Function or operation not implemented.
public let errSecUnimplemented: OSStatus = -4
/// -34: The disk is full.
public let errSecDiskFull: OSStatus = -34
/// -36: I/O error.
public let errSecIO: OSStatus = -36
/// -50: One or more parameters passed to a function were not valid.
public let errSecParam: OSStatus = -50
/// -108: Failed to allocate memory.
public let errSecAllocate: OSStatus = -108
/// -128: User canceled the operation.
public let errSecUserCanceled: OSStatus = -128
/// -25291: No keychain is available. You may need to restart your computer.
public let errSecNotAvailable: OSStatus = -25291
/// -25292: This keychain cannot be modified.
public let errSecReadOnly: OSStatus = -25292
/// -25293: The user name or passphrase you entered is not correct.
public let errSecAuthFailed: OSStatus = -25293
/// -25294: The specified keychain could not be found.
public let errSecNoSuchKeychain: OSStatus = -25294
/// -25295: The specified keychain is not a valid keychain file.
public let errSecInvalidKeychain: OSStatus = -25295
/// -25296: A keychain with the same name already exists.
public let errSecDuplicateKeychain: OSStatus = -25296
/// -25299: The specified item already exists in the keychain.
public let errSecDuplicateItem: OSStatus = -25299
/// -25300: The specified item could not be found in the keychain.
public let errSecItemNotFound: OSStatus = -25300
/// -25302: This item contains information which is too large or in a format that cannot be displayed.
public let errSecDataTooLarge: OSStatus = -25302
/// -25303: The specified attribute does not exist.
public let errSecNoSuchAttr: OSStatus = -25303
/// -25306: The specified item does not appear to be a valid keychain item.
public let errSecNoSuchClass: OSStatus = -25306
/// -25308: User interaction is not allowed.
public let errSecInteractionNotAllowed: OSStatus = -25308
/// -25310: This keychain was created by a different version of the system software and cannot be opened.
public let errSecWrongSecVersion: OSStatus = -25310
/// -26275: Unable to decode the provided data.
public let errSecDecode: OSStatus = -26275
/// -34018: A required entitlement isn't present.
public let errSecMissingEntitlement: OSStatus = -34018

/// The message of every status this module returns, by code.
let statusMessages: [OSStatus: String] = [
    errSecSuccess: "No error.",
    errSecUnimplemented: "Function or operation not implemented.",
    errSecDiskFull: "The disk is full.",
    errSecIO: "I/O error.",
    errSecParam: "One or more parameters passed to a function were not valid.",
    errSecAllocate: "Failed to allocate memory.",
    errSecUserCanceled: "User canceled the operation.",
    errSecNotAvailable: "No keychain is available. You may need to restart your computer.",
    errSecReadOnly: "This keychain cannot be modified.",
    errSecAuthFailed: "The user name or passphrase you entered is not correct.",
    errSecNoSuchKeychain: "The specified keychain could not be found.",
    errSecInvalidKeychain: "The specified keychain is not a valid keychain file.",
    errSecDuplicateKeychain: "A keychain with the same name already exists.",
    errSecDuplicateItem: "The specified item already exists in the keychain.",
    errSecItemNotFound: "The specified item could not be found in the keychain.",
    errSecDataTooLarge: "This item contains information which is too large or in a format that cannot be displayed.",
    errSecNoSuchAttr: "The specified attribute does not exist.",
    errSecNoSuchClass: "The specified item does not appear to be a valid keychain item.",
    errSecInteractionNotAllowed: "User interaction is not allowed.",
    errSecWrongSecVersion: "This keychain was created by a different version of the system software and cannot be opened.",
    errSecDecode: "Unable to decode the provided data.",
    errSecMissingEntitlement: "A required entitlement isn't present.",
]

/// A human-readable message for a status code, as on Apple platforms; an unknown code
/// gives `OSStatus <n>`.
///
/// - Parameters:
///   - status: The status a Keychain Services function returned.
///   - reserved: Pass nil.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    NSString(string: statusMessages[status] ?? "OSStatus \(status)")
}
