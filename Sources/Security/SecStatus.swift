import Foundation
internal import KeychainCore

// The status codes of Keychain Services and the messages SecCopyErrorMessageString gives,
// from the core's one table of them (KeychainStatus).

/// 0: No error.
public let errSecSuccess: OSStatus = KeychainStatus.success.code
/// -4: Function or operation not implemented.
public let errSecUnimplemented: OSStatus = KeychainStatus.unimplemented.code
/// -34: The disk is full.
public let errSecDiskFull: OSStatus = KeychainStatus.diskFull.code
/// -36: I/O error.
public let errSecIO: OSStatus = KeychainStatus.io.code
/// -50: One or more parameters passed to a function were not valid.
public let errSecParam: OSStatus = KeychainStatus.param.code
/// -108: Failed to allocate memory.
public let errSecAllocate: OSStatus = KeychainStatus.allocate.code
/// -128: User canceled the operation.
public let errSecUserCanceled: OSStatus = KeychainStatus.userCanceled.code
/// -25291: No keychain is available. You may need to restart your computer.
public let errSecNotAvailable: OSStatus = KeychainStatus.notAvailable.code
/// -25292: This keychain cannot be modified.
public let errSecReadOnly: OSStatus = KeychainStatus.readOnly.code
/// -25293: The user name or passphrase you entered is not correct.
public let errSecAuthFailed: OSStatus = KeychainStatus.authFailed.code
/// -25294: The specified keychain could not be found.
public let errSecNoSuchKeychain: OSStatus = KeychainStatus.noSuchKeychain.code
/// -25295: The specified keychain is not a valid keychain file.
public let errSecInvalidKeychain: OSStatus = KeychainStatus.invalidKeychain.code
/// -25296: A keychain with the same name already exists.
public let errSecDuplicateKeychain: OSStatus = KeychainStatus.duplicateKeychain.code
/// -25299: The specified item already exists in the keychain.
public let errSecDuplicateItem: OSStatus = KeychainStatus.duplicateItem.code
/// -25300: The specified item could not be found in the keychain.
public let errSecItemNotFound: OSStatus = KeychainStatus.itemNotFound.code
/// -25302: This item contains information which is too large or in a format that cannot be displayed.
public let errSecDataTooLarge: OSStatus = KeychainStatus.dataTooLarge.code
/// -25303: The specified attribute does not exist.
public let errSecNoSuchAttr: OSStatus = KeychainStatus.noSuchAttribute.code
/// -25306: The specified item does not appear to be a valid keychain item.
public let errSecNoSuchClass: OSStatus = KeychainStatus.noSuchClass.code
/// -25308: User interaction is not allowed.
public let errSecInteractionNotAllowed: OSStatus = KeychainStatus.interactionNotAllowed.code
/// -25310: This keychain was created by a different version of the system software and cannot be opened.
public let errSecWrongSecVersion: OSStatus = KeychainStatus.wrongVersion.code
/// -26275: Unable to decode the provided data.
public let errSecDecode: OSStatus = KeychainStatus.decode.code
/// -26276: An internal error occurred in the Security framework.
public let errSecInternal: OSStatus = KeychainStatus.internalError.code
/// -34018: A required entitlement isn't present.
public let errSecMissingEntitlement: OSStatus = KeychainStatus.missingEntitlement.code

/// A human-readable message for a status code, as on Apple platforms; an unknown code
/// gives `OSStatus <n>`.
///
/// - Parameters:
///   - status: The status a Keychain Services function returned.
///   - reserved: Pass nil.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    NSString(string: KeychainStatus.message(for: status) ?? "OSStatus \(status)")
}
