/// Why a keychain operation failed. Each case maps to one Keychain Services status.
///
/// Reasons describe the request, never its values: no secret, account or label is ever
/// part of an error.
package enum KeychainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// errSecParam (-50): a malformed query or value.
    case param(String)
    /// errSecNoSuchAttr (-25303): the class has no attribute with this code.
    case noSuchAttribute(String)
    /// errSecNoSuchClass (-25306).
    case noSuchClass
    /// errSecDuplicateItem (-25299).
    case duplicateItem
    /// errSecItemNotFound (-25300).
    case itemNotFound
    /// errSecMissingEntitlement (-34018): the caller does not hold the access group.
    case missingEntitlement(group: String)
    /// errSecDecode (-26275): a stored record is damaged or was tampered with.
    case decode
    /// errSecNotAvailable (-25291): the keychain cannot be created or opened.
    case notAvailable(String)
    /// errSecWrongSecVersion (-25310): the keychain was written by a newer format.
    case wrongVersion(Int)
    /// errSecUnimplemented (-4).
    case unimplemented(String)
    /// errSecInteractionNotAllowed (-25308): the item's class key is not available.
    case interactionNotAllowed
    /// errSecAuthFailed (-25293): a wrong keychain or archive password, or an `akpu` item
    /// in a keychain without a password.
    case authFailed
    /// errSecUserCanceled (-128): the user cancelled a prompt for their presence or a password.
    case userCanceled
    /// errSecNoSuchKeychain (-25294).
    case noSuchKeychain
    /// errSecDuplicateKeychain (-25296).
    case duplicateKeychain
    /// errSecReadOnly (-25292).
    case readOnly
    /// errSecDiskFull (-34).
    case diskFull
    /// errSecIO (-36).
    case io(String)

    /// The Keychain Services status of this error, from the one table of them.
    package var keychainStatus: KeychainStatus {
        switch self {
        case .param: .param
        case .noSuchAttribute: .noSuchAttribute
        case .noSuchClass: .noSuchClass
        case .duplicateItem: .duplicateItem
        case .itemNotFound: .itemNotFound
        case .missingEntitlement: .missingEntitlement
        case .decode: .decode
        case .notAvailable: .notAvailable
        case .wrongVersion: .wrongVersion
        case .unimplemented: .unimplemented
        case .interactionNotAllowed: .interactionNotAllowed
        case .authFailed: .authFailed
        case .userCanceled: .userCanceled
        case .noSuchKeychain: .noSuchKeychain
        case .duplicateKeychain: .duplicateKeychain
        case .readOnly: .readOnly
        case .diskFull: .diskFull
        case .io: .io
        }
    }

    /// The Keychain Services status code of this error.
    package var status: Int32 { keychainStatus.code }

    package var description: String {
        switch self {
        case .param(let reason): "invalid parameter: \(reason)"
        case .noSuchAttribute(let code): "no attribute '\(code)' in this item class"
        case .noSuchClass: "no such item class"
        case .duplicateItem: "the item already exists"
        case .itemNotFound: "the item could not be found"
        case .missingEntitlement(let group): "the access group '\(group)' is not held by this process"
        case .decode: "a stored record is damaged or was tampered with"
        case .notAvailable(let reason): "the keychain is not available: \(reason)"
        case .wrongVersion(let version):
            "the keychain has format version \(version); this library reads formats \(KeychainSchema.readableFormats.lowerBound) to \(KeychainSchema.readableFormats.upperBound) only"
        case .unimplemented(let what): "not implemented: \(what)"
        case .interactionNotAllowed: "the item's protection class is locked"
        case .authFailed: "the password is not correct, or the keychain has none"
        case .userCanceled: "the user cancelled the prompt"
        case .noSuchKeychain: "the keychain does not exist"
        case .duplicateKeychain: "a keychain with this name already exists"
        case .readOnly: "the keychain cannot be modified"
        case .diskFull: "the disk is full"
        case .io(let reason): "I/O error: \(reason)"
        }
    }
}
