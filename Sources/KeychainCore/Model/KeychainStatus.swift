/// A Keychain Services status: its code, its name in Apple's `SecBase.h` and the message
/// `SecCopyErrorMessageString` gives for it, as on Apple platforms.
///
/// The one table of them: the core's errors take their codes from it, `Security` defines its
/// `errSec...` constants and messages from it, and keychainctl prints them through
/// `Security`. It holds every `errSec...` code of `SecBase.h`, in the header's order, with
/// the header's message for it (the comments Apple's `SecErrorMessages.strings` is made
/// from), word for word: some of Apple's messages end without a period.
package struct KeychainStatus: Sendable, Hashable {
    /// The `OSStatus` code.
    package let code: Int32
    /// The constant's name in `SecBase.h`, such as `errSecItemNotFound`.
    package let name: String
    /// The message, Apple's sentence for the code.
    package let message: String

    private init(_ name: String, _ code: Int32, _ message: String) {
        self.name = name
        self.code = code
        self.message = message
    }

    /// `errSecSuccess`.
    package static let success = KeychainStatus("errSecSuccess", 0, "No error.")
    /// `errSecUnimplemented`.
    package static let unimplemented = KeychainStatus("errSecUnimplemented", -4, "Function or operation not implemented.")
    /// `errSecDiskFull`.
    package static let diskFull = KeychainStatus("errSecDiskFull", -34, "The disk is full.")
    /// `errSecIO`.
    package static let io = KeychainStatus("errSecIO", -36, "I/O error.")
    /// `errSecOpWr`.
    package static let opWr = KeychainStatus("errSecOpWr", -49, "File already open with write permission.")
    /// `errSecParam`.
    package static let param = KeychainStatus("errSecParam", -50, "One or more parameters passed to a function were not valid.")
    /// `errSecWrPerm`.
    package static let wrPerm = KeychainStatus("errSecWrPerm", -61, "Write permissions error.")
    /// `errSecAllocate`.
    package static let allocate = KeychainStatus("errSecAllocate", -108, "Failed to allocate memory.")
    /// `errSecUserCanceled`.
    package static let userCanceled = KeychainStatus("errSecUserCanceled", -128, "User canceled the operation.")
    /// `errSecBadReq`.
    package static let badReq = KeychainStatus("errSecBadReq", -909, "Bad parameter or invalid state for operation.")
    /// `errSecInternalComponent`. `SecBase.h` gives it no message; this is the summary of Apple's documentation.
    package static let internalComponent = KeychainStatus("errSecInternalComponent", -2070, "An internal component experienced an error.")
    /// `errSecCoreFoundationUnknown`. Neither `SecBase.h` nor Apple's documentation gives it a message; this one says what its name does.
    package static let coreFoundationUnknown = KeychainStatus("errSecCoreFoundationUnknown", -4960, "An unknown Core Foundation error occurred.")
    /// `errSecMissingEntitlement`.
    package static let missingEntitlement = KeychainStatus("errSecMissingEntitlement", -34018, "A required entitlement isn't present.")
    /// `errSecRestrictedAPI`.
    package static let restrictedAPI = KeychainStatus("errSecRestrictedAPI", -34020, "Client is restricted and is not permitted to perform this operation.")
    /// `errSecNotAvailable`.
    package static let notAvailable = KeychainStatus("errSecNotAvailable", -25291, "No keychain is available. You may need to restart your computer.")
    /// `errSecReadOnly`.
    package static let readOnly = KeychainStatus("errSecReadOnly", -25292, "This keychain cannot be modified.")
    /// `errSecAuthFailed`.
    package static let authFailed = KeychainStatus("errSecAuthFailed", -25293, "The user name or passphrase you entered is not correct.")
    /// `errSecNoSuchKeychain`.
    package static let noSuchKeychain = KeychainStatus("errSecNoSuchKeychain", -25294, "The specified keychain could not be found.")
    /// `errSecInvalidKeychain`.
    package static let invalidKeychain = KeychainStatus("errSecInvalidKeychain", -25295, "The specified keychain is not a valid keychain file.")
    /// `errSecDuplicateKeychain`.
    package static let duplicateKeychain = KeychainStatus("errSecDuplicateKeychain", -25296, "A keychain with the same name already exists.")
    /// `errSecDuplicateCallback`.
    package static let duplicateCallback = KeychainStatus("errSecDuplicateCallback", -25297, "The specified callback function is already installed.")
    /// `errSecInvalidCallback`.
    package static let invalidCallback = KeychainStatus("errSecInvalidCallback", -25298, "The specified callback function is not valid.")
    /// `errSecDuplicateItem`.
    package static let duplicateItem = KeychainStatus("errSecDuplicateItem", -25299, "The specified item already exists in the keychain.")
    /// `errSecItemNotFound`.
    package static let itemNotFound = KeychainStatus("errSecItemNotFound", -25300, "The specified item could not be found in the keychain.")
    /// `errSecBufferTooSmall`.
    package static let bufferTooSmall = KeychainStatus("errSecBufferTooSmall", -25301, "There is not enough memory available to use the specified item.")
    /// `errSecDataTooLarge`.
    package static let dataTooLarge = KeychainStatus("errSecDataTooLarge", -25302, "This item contains information which is too large or in a format that cannot be displayed.")
    /// `errSecNoSuchAttr`.
    package static let noSuchAttribute = KeychainStatus("errSecNoSuchAttr", -25303, "The specified attribute does not exist.")
    /// `errSecInvalidItemRef`.
    package static let invalidItemRef = KeychainStatus("errSecInvalidItemRef", -25304, "The specified item is no longer valid. It may have been deleted from the keychain.")
    /// `errSecInvalidSearchRef`.
    package static let invalidSearchRef = KeychainStatus("errSecInvalidSearchRef", -25305, "Unable to search the current keychain.")
    /// `errSecNoSuchClass`.
    package static let noSuchClass = KeychainStatus("errSecNoSuchClass", -25306, "The specified item does not appear to be a valid keychain item.")
    /// `errSecNoDefaultKeychain`.
    package static let noDefaultKeychain = KeychainStatus("errSecNoDefaultKeychain", -25307, "A default keychain could not be found.")
    /// `errSecInteractionNotAllowed`.
    package static let interactionNotAllowed = KeychainStatus("errSecInteractionNotAllowed", -25308, "User interaction is not allowed.")
    /// `errSecReadOnlyAttr`.
    package static let readOnlyAttr = KeychainStatus("errSecReadOnlyAttr", -25309, "The specified attribute could not be modified.")
    /// `errSecWrongSecVersion`.
    package static let wrongVersion = KeychainStatus("errSecWrongSecVersion", -25310, "This keychain was created by a different version of the system software and cannot be opened.")
    /// `errSecKeySizeNotAllowed`.
    package static let keySizeNotAllowed = KeychainStatus("errSecKeySizeNotAllowed", -25311, "This item specifies a key size which is too large or too small.")
    /// `errSecNoStorageModule`.
    package static let noStorageModule = KeychainStatus("errSecNoStorageModule", -25312, "A required component (data storage module) could not be loaded. You may need to restart your computer.")
    /// `errSecNoCertificateModule`.
    package static let noCertificateModule = KeychainStatus("errSecNoCertificateModule", -25313, "A required component (certificate module) could not be loaded. You may need to restart your computer.")
    /// `errSecNoPolicyModule`.
    package static let noPolicyModule = KeychainStatus("errSecNoPolicyModule", -25314, "A required component (policy module) could not be loaded. You may need to restart your computer.")
    /// `errSecInteractionRequired`.
    package static let interactionRequired = KeychainStatus("errSecInteractionRequired", -25315, "User interaction is required, but is currently not allowed.")
    /// `errSecDataNotAvailable`.
    package static let dataNotAvailable = KeychainStatus("errSecDataNotAvailable", -25316, "The contents of this item cannot be retrieved.")
    /// `errSecDataNotModifiable`.
    package static let dataNotModifiable = KeychainStatus("errSecDataNotModifiable", -25317, "The contents of this item cannot be modified.")
    /// `errSecCreateChainFailed`.
    package static let createChainFailed = KeychainStatus("errSecCreateChainFailed", -25318, "One or more certificates required to validate this certificate cannot be found.")
    /// `errSecInvalidPrefsDomain`.
    package static let invalidPrefsDomain = KeychainStatus("errSecInvalidPrefsDomain", -25319, "The specified preferences domain is not valid.")
    /// `errSecInDarkWake`.
    package static let inDarkWake = KeychainStatus("errSecInDarkWake", -25320, "In dark wake, no UI possible")
    /// `errSecACLNotSimple`.
    package static let aclNotSimple = KeychainStatus("errSecACLNotSimple", -25240, "The specified access control list is not in standard (simple) form.")
    /// `errSecPolicyNotFound`.
    package static let policyNotFound = KeychainStatus("errSecPolicyNotFound", -25241, "The specified policy cannot be found.")
    /// `errSecInvalidTrustSetting`.
    package static let invalidTrustSetting = KeychainStatus("errSecInvalidTrustSetting", -25242, "The specified trust setting is invalid.")
    /// `errSecNoAccessForItem`.
    package static let noAccessForItem = KeychainStatus("errSecNoAccessForItem", -25243, "The specified item has no access control.")
    /// `errSecInvalidOwnerEdit`.
    package static let invalidOwnerEdit = KeychainStatus("errSecInvalidOwnerEdit", -25244, "Invalid attempt to change the owner of this item.")
    /// `errSecTrustNotAvailable`.
    package static let trustNotAvailable = KeychainStatus("errSecTrustNotAvailable", -25245, "No trust results are available.")
    /// `errSecUnsupportedFormat`.
    package static let unsupportedFormat = KeychainStatus("errSecUnsupportedFormat", -25256, "Import/Export format unsupported.")
    /// `errSecUnknownFormat`.
    package static let unknownFormat = KeychainStatus("errSecUnknownFormat", -25257, "Unknown format in import.")
    /// `errSecKeyIsSensitive`.
    package static let keyIsSensitive = KeychainStatus("errSecKeyIsSensitive", -25258, "Key material must be wrapped for export.")
    /// `errSecMultiplePrivKeys`.
    package static let multiplePrivKeys = KeychainStatus("errSecMultiplePrivKeys", -25259, "An attempt was made to import multiple private keys.")
    /// `errSecPassphraseRequired`.
    package static let passphraseRequired = KeychainStatus("errSecPassphraseRequired", -25260, "Passphrase is required for import/export.")
    /// `errSecInvalidPasswordRef`.
    package static let invalidPasswordRef = KeychainStatus("errSecInvalidPasswordRef", -25261, "The password reference was invalid.")
    /// `errSecInvalidTrustSettings`.
    package static let invalidTrustSettings = KeychainStatus("errSecInvalidTrustSettings", -25262, "The Trust Settings Record was corrupted.")
    /// `errSecNoTrustSettings`.
    package static let noTrustSettings = KeychainStatus("errSecNoTrustSettings", -25263, "No Trust Settings were found.")
    /// `errSecPkcs12VerifyFailure`.
    package static let pkcs12VerifyFailure = KeychainStatus("errSecPkcs12VerifyFailure", -25264, "MAC verification failed during PKCS12 import (wrong password?)")
    /// `errSecNotSigner`.
    package static let notSigner = KeychainStatus("errSecNotSigner", -26267, "A certificate was not signed by its proposed parent.")
    /// `errSecDecode`.
    package static let decode = KeychainStatus("errSecDecode", -26275, "Unable to decode the provided data.")
    /// `errSecInternal`, of Apple's private `SecBasePriv.h`, which public calls return.
    package static let internalFramework = KeychainStatus("errSecInternal", -26276, "An internal error occurred in the Security framework.")
    /// `errSecServiceNotAvailable`.
    package static let serviceNotAvailable = KeychainStatus("errSecServiceNotAvailable", -67585, "The required service is not available.")
    /// `errSecInsufficientClientID`.
    package static let insufficientClientID = KeychainStatus("errSecInsufficientClientID", -67586, "The client ID is not correct.")
    /// `errSecDeviceReset`.
    package static let deviceReset = KeychainStatus("errSecDeviceReset", -67587, "A device reset has occurred.")
    /// `errSecDeviceFailed`.
    package static let deviceFailed = KeychainStatus("errSecDeviceFailed", -67588, "A device failure has occurred.")
    /// `errSecAppleAddAppACLSubject`.
    package static let appleAddAppACLSubject = KeychainStatus("errSecAppleAddAppACLSubject", -67589, "Adding an application ACL subject failed.")
    /// `errSecApplePublicKeyIncomplete`.
    package static let applePublicKeyIncomplete = KeychainStatus("errSecApplePublicKeyIncomplete", -67590, "The public key is incomplete.")
    /// `errSecAppleSignatureMismatch`.
    package static let appleSignatureMismatch = KeychainStatus("errSecAppleSignatureMismatch", -67591, "A signature mismatch has occurred.")
    /// `errSecAppleInvalidKeyStartDate`.
    package static let appleInvalidKeyStartDate = KeychainStatus("errSecAppleInvalidKeyStartDate", -67592, "The specified key has an invalid start date.")
    /// `errSecAppleInvalidKeyEndDate`.
    package static let appleInvalidKeyEndDate = KeychainStatus("errSecAppleInvalidKeyEndDate", -67593, "The specified key has an invalid end date.")
    /// `errSecConversionError`.
    package static let conversionError = KeychainStatus("errSecConversionError", -67594, "A conversion error has occurred.")
    /// `errSecAppleSSLv2Rollback`.
    package static let appleSSLv2Rollback = KeychainStatus("errSecAppleSSLv2Rollback", -67595, "A SSLv2 rollback error has occurred.")
    /// `errSecQuotaExceeded`.
    package static let quotaExceeded = KeychainStatus("errSecQuotaExceeded", -67596, "The quota was exceeded.")
    /// `errSecFileTooBig`.
    package static let fileTooBig = KeychainStatus("errSecFileTooBig", -67597, "The file is too big.")
    /// `errSecInvalidDatabaseBlob`.
    package static let invalidDatabaseBlob = KeychainStatus("errSecInvalidDatabaseBlob", -67598, "The specified database has an invalid blob.")
    /// `errSecInvalidKeyBlob`.
    package static let invalidKeyBlob = KeychainStatus("errSecInvalidKeyBlob", -67599, "The specified database has an invalid key blob.")
    /// `errSecIncompatibleDatabaseBlob`.
    package static let incompatibleDatabaseBlob = KeychainStatus("errSecIncompatibleDatabaseBlob", -67600, "The specified database has an incompatible blob.")
    /// `errSecIncompatibleKeyBlob`.
    package static let incompatibleKeyBlob = KeychainStatus("errSecIncompatibleKeyBlob", -67601, "The specified database has an incompatible key blob.")
    /// `errSecHostNameMismatch`.
    package static let hostNameMismatch = KeychainStatus("errSecHostNameMismatch", -67602, "A host name mismatch has occurred.")
    /// `errSecUnknownCriticalExtensionFlag`.
    package static let unknownCriticalExtensionFlag = KeychainStatus("errSecUnknownCriticalExtensionFlag", -67603, "There is an unknown critical extension flag.")
    /// `errSecNoBasicConstraints`.
    package static let noBasicConstraints = KeychainStatus("errSecNoBasicConstraints", -67604, "No basic constraints were found.")
    /// `errSecNoBasicConstraintsCA`.
    package static let noBasicConstraintsCA = KeychainStatus("errSecNoBasicConstraintsCA", -67605, "No basic CA constraints were found.")
    /// `errSecInvalidAuthorityKeyID`.
    package static let invalidAuthorityKeyID = KeychainStatus("errSecInvalidAuthorityKeyID", -67606, "The authority key ID is not valid.")
    /// `errSecInvalidSubjectKeyID`.
    package static let invalidSubjectKeyID = KeychainStatus("errSecInvalidSubjectKeyID", -67607, "The subject key ID is not valid.")
    /// `errSecInvalidKeyUsageForPolicy`.
    package static let invalidKeyUsageForPolicy = KeychainStatus("errSecInvalidKeyUsageForPolicy", -67608, "The key usage is not valid for the specified policy.")
    /// `errSecInvalidExtendedKeyUsage`.
    package static let invalidExtendedKeyUsage = KeychainStatus("errSecInvalidExtendedKeyUsage", -67609, "The extended key usage is not valid.")
    /// `errSecInvalidIDLinkage`.
    package static let invalidIDLinkage = KeychainStatus("errSecInvalidIDLinkage", -67610, "The ID linkage is not valid.")
    /// `errSecPathLengthConstraintExceeded`.
    package static let pathLengthConstraintExceeded = KeychainStatus("errSecPathLengthConstraintExceeded", -67611, "The path length constraint was exceeded.")
    /// `errSecInvalidRoot`.
    package static let invalidRoot = KeychainStatus("errSecInvalidRoot", -67612, "The root or anchor certificate is not valid.")
    /// `errSecCRLExpired`.
    package static let crlExpired = KeychainStatus("errSecCRLExpired", -67613, "The CRL has expired.")
    /// `errSecCRLNotValidYet`.
    package static let crlNotValidYet = KeychainStatus("errSecCRLNotValidYet", -67614, "The CRL is not yet valid.")
    /// `errSecCRLNotFound`.
    package static let crlNotFound = KeychainStatus("errSecCRLNotFound", -67615, "The CRL was not found.")
    /// `errSecCRLServerDown`.
    package static let crlServerDown = KeychainStatus("errSecCRLServerDown", -67616, "The CRL server is down.")
    /// `errSecCRLBadURI`.
    package static let crlBadURI = KeychainStatus("errSecCRLBadURI", -67617, "The CRL has a bad Uniform Resource Identifier.")
    /// `errSecUnknownCertExtension`.
    package static let unknownCertExtension = KeychainStatus("errSecUnknownCertExtension", -67618, "An unknown certificate extension was encountered.")
    /// `errSecUnknownCRLExtension`.
    package static let unknownCRLExtension = KeychainStatus("errSecUnknownCRLExtension", -67619, "An unknown CRL extension was encountered.")
    /// `errSecCRLNotTrusted`.
    package static let crlNotTrusted = KeychainStatus("errSecCRLNotTrusted", -67620, "The CRL is not trusted.")
    /// `errSecCRLPolicyFailed`.
    package static let crlPolicyFailed = KeychainStatus("errSecCRLPolicyFailed", -67621, "The CRL policy failed.")
    /// `errSecIDPFailure`.
    package static let idpFailure = KeychainStatus("errSecIDPFailure", -67622, "The issuing distribution point was not valid.")
    /// `errSecSMIMEEmailAddressesNotFound`.
    package static let smimeEmailAddressesNotFound = KeychainStatus("errSecSMIMEEmailAddressesNotFound", -67623, "An email address mismatch was encountered.")
    /// `errSecSMIMEBadExtendedKeyUsage`.
    package static let smimeBadExtendedKeyUsage = KeychainStatus("errSecSMIMEBadExtendedKeyUsage", -67624, "The appropriate extended key usage for SMIME was not found.")
    /// `errSecSMIMEBadKeyUsage`.
    package static let smimeBadKeyUsage = KeychainStatus("errSecSMIMEBadKeyUsage", -67625, "The key usage is not compatible with SMIME.")
    /// `errSecSMIMEKeyUsageNotCritical`.
    package static let smimeKeyUsageNotCritical = KeychainStatus("errSecSMIMEKeyUsageNotCritical", -67626, "The key usage extension is not marked as critical.")
    /// `errSecSMIMENoEmailAddress`.
    package static let smimeNoEmailAddress = KeychainStatus("errSecSMIMENoEmailAddress", -67627, "No email address was found in the certificate.")
    /// `errSecSMIMESubjAltNameNotCritical`.
    package static let smimeSubjAltNameNotCritical = KeychainStatus("errSecSMIMESubjAltNameNotCritical", -67628, "The subject alternative name extension is not marked as critical.")
    /// `errSecSSLBadExtendedKeyUsage`.
    package static let sslBadExtendedKeyUsage = KeychainStatus("errSecSSLBadExtendedKeyUsage", -67629, "The appropriate extended key usage for SSL was not found.")
    /// `errSecOCSPBadResponse`.
    package static let ocspBadResponse = KeychainStatus("errSecOCSPBadResponse", -67630, "The OCSP response was incorrect or could not be parsed.")
    /// `errSecOCSPBadRequest`.
    package static let ocspBadRequest = KeychainStatus("errSecOCSPBadRequest", -67631, "The OCSP request was incorrect or could not be parsed.")
    /// `errSecOCSPUnavailable`.
    package static let ocspUnavailable = KeychainStatus("errSecOCSPUnavailable", -67632, "OCSP service is unavailable.")
    /// `errSecOCSPStatusUnrecognized`.
    package static let ocspStatusUnrecognized = KeychainStatus("errSecOCSPStatusUnrecognized", -67633, "The OCSP server did not recognize this certificate.")
    /// `errSecEndOfData`.
    package static let endOfData = KeychainStatus("errSecEndOfData", -67634, "An end-of-data was detected.")
    /// `errSecIncompleteCertRevocationCheck`.
    package static let incompleteCertRevocationCheck = KeychainStatus("errSecIncompleteCertRevocationCheck", -67635, "An incomplete certificate revocation check occurred.")
    /// `errSecNetworkFailure`.
    package static let networkFailure = KeychainStatus("errSecNetworkFailure", -67636, "A network failure occurred.")
    /// `errSecOCSPNotTrustedToAnchor`.
    package static let ocspNotTrustedToAnchor = KeychainStatus("errSecOCSPNotTrustedToAnchor", -67637, "The OCSP response was not trusted to a root or anchor certificate.")
    /// `errSecRecordModified`.
    package static let recordModified = KeychainStatus("errSecRecordModified", -67638, "The record was modified.")
    /// `errSecOCSPSignatureError`.
    package static let ocspSignatureError = KeychainStatus("errSecOCSPSignatureError", -67639, "The OCSP response had an invalid signature.")
    /// `errSecOCSPNoSigner`.
    package static let ocspNoSigner = KeychainStatus("errSecOCSPNoSigner", -67640, "The OCSP response had no signer.")
    /// `errSecOCSPResponderMalformedReq`.
    package static let ocspResponderMalformedReq = KeychainStatus("errSecOCSPResponderMalformedReq", -67641, "The OCSP responder was given a malformed request.")
    /// `errSecOCSPResponderInternalError`.
    package static let ocspResponderInternalError = KeychainStatus("errSecOCSPResponderInternalError", -67642, "The OCSP responder encountered an internal error.")
    /// `errSecOCSPResponderTryLater`.
    package static let ocspResponderTryLater = KeychainStatus("errSecOCSPResponderTryLater", -67643, "The OCSP responder is busy, try again later.")
    /// `errSecOCSPResponderSignatureRequired`.
    package static let ocspResponderSignatureRequired = KeychainStatus("errSecOCSPResponderSignatureRequired", -67644, "The OCSP responder requires a signature.")
    /// `errSecOCSPResponderUnauthorized`.
    package static let ocspResponderUnauthorized = KeychainStatus("errSecOCSPResponderUnauthorized", -67645, "The OCSP responder rejected this request as unauthorized.")
    /// `errSecOCSPResponseNonceMismatch`.
    package static let ocspResponseNonceMismatch = KeychainStatus("errSecOCSPResponseNonceMismatch", -67646, "The OCSP response nonce did not match the request.")
    /// `errSecCodeSigningBadCertChainLength`.
    package static let codeSigningBadCertChainLength = KeychainStatus("errSecCodeSigningBadCertChainLength", -67647, "Code signing encountered an incorrect certificate chain length.")
    /// `errSecCodeSigningNoBasicConstraints`.
    package static let codeSigningNoBasicConstraints = KeychainStatus("errSecCodeSigningNoBasicConstraints", -67648, "Code signing found no basic constraints.")
    /// `errSecCodeSigningBadPathLengthConstraint`.
    package static let codeSigningBadPathLengthConstraint = KeychainStatus("errSecCodeSigningBadPathLengthConstraint", -67649, "Code signing encountered an incorrect path length constraint.")
    /// `errSecCodeSigningNoExtendedKeyUsage`.
    package static let codeSigningNoExtendedKeyUsage = KeychainStatus("errSecCodeSigningNoExtendedKeyUsage", -67650, "Code signing found no extended key usage.")
    /// `errSecCodeSigningDevelopment`.
    package static let codeSigningDevelopment = KeychainStatus("errSecCodeSigningDevelopment", -67651, "Code signing indicated use of a development-only certificate.")
    /// `errSecResourceSignBadCertChainLength`.
    package static let resourceSignBadCertChainLength = KeychainStatus("errSecResourceSignBadCertChainLength", -67652, "Resource signing has encountered an incorrect certificate chain length.")
    /// `errSecResourceSignBadExtKeyUsage`.
    package static let resourceSignBadExtKeyUsage = KeychainStatus("errSecResourceSignBadExtKeyUsage", -67653, "Resource signing has encountered an error in the extended key usage.")
    /// `errSecTrustSettingDeny`.
    package static let trustSettingDeny = KeychainStatus("errSecTrustSettingDeny", -67654, "The trust setting for this policy was set to Deny.")
    /// `errSecInvalidSubjectName`.
    package static let invalidSubjectName = KeychainStatus("errSecInvalidSubjectName", -67655, "An invalid certificate subject name was encountered.")
    /// `errSecUnknownQualifiedCertStatement`.
    package static let unknownQualifiedCertStatement = KeychainStatus("errSecUnknownQualifiedCertStatement", -67656, "An unknown qualified certificate statement was encountered.")
    /// `errSecMobileMeRequestQueued`. `SecBase.h` gives it no message; this is the summary of Apple's documentation.
    package static let mobileMeRequestQueued = KeychainStatus("errSecMobileMeRequestQueued", -67657, "The MobileMe request will be sent during the next connection.")
    /// `errSecMobileMeRequestRedirected`. Neither `SecBase.h` nor Apple's documentation gives it a message; this one says what its name does.
    package static let mobileMeRequestRedirected = KeychainStatus("errSecMobileMeRequestRedirected", -67658, "The MobileMe request was redirected.")
    /// `errSecMobileMeServerError`. Neither `SecBase.h` nor Apple's documentation gives it a message; this one says what its name does.
    package static let mobileMeServerError = KeychainStatus("errSecMobileMeServerError", -67659, "A MobileMe server error occurred.")
    /// `errSecMobileMeServerNotAvailable`. `SecBase.h` gives it no message; this is the summary of Apple's documentation.
    package static let mobileMeServerNotAvailable = KeychainStatus("errSecMobileMeServerNotAvailable", -67660, "The MobileMe server is not available.")
    /// `errSecMobileMeServerAlreadyExists`. Neither `SecBase.h` nor Apple's documentation gives it a message; this one says what its name does.
    package static let mobileMeServerAlreadyExists = KeychainStatus("errSecMobileMeServerAlreadyExists", -67661, "The MobileMe server already exists.")
    /// `errSecMobileMeServerServiceErr`. Neither `SecBase.h` nor Apple's documentation gives it a message; this one says what its name does.
    package static let mobileMeServerServiceErr = KeychainStatus("errSecMobileMeServerServiceErr", -67662, "A MobileMe server service error occurred.")
    /// `errSecMobileMeRequestAlreadyPending`. `SecBase.h` gives it no message; this is the summary of Apple's documentation.
    package static let mobileMeRequestAlreadyPending = KeychainStatus("errSecMobileMeRequestAlreadyPending", -67663, "A MobileMe request is already pending.")
    /// `errSecMobileMeNoRequestPending`. Neither `SecBase.h` nor Apple's documentation gives it a message; this one says what its name does.
    package static let mobileMeNoRequestPending = KeychainStatus("errSecMobileMeNoRequestPending", -67664, "No MobileMe request is pending.")
    /// `errSecMobileMeCSRVerifyFailure`. `SecBase.h` gives it no message; this is the summary of Apple's documentation.
    package static let mobileMeCSRVerifyFailure = KeychainStatus("errSecMobileMeCSRVerifyFailure", -67665, "A MobileMe certificate signing request verification failure occurred.")
    /// `errSecMobileMeFailedConsistencyCheck`. Neither `SecBase.h` nor Apple's documentation gives it a message; this one says what its name does.
    package static let mobileMeFailedConsistencyCheck = KeychainStatus("errSecMobileMeFailedConsistencyCheck", -67666, "A MobileMe consistency check failed.")
    /// `errSecNotInitialized`.
    package static let notInitialized = KeychainStatus("errSecNotInitialized", -67667, "A function was called without initializing CSSM.")
    /// `errSecInvalidHandleUsage`.
    package static let invalidHandleUsage = KeychainStatus("errSecInvalidHandleUsage", -67668, "The CSSM handle does not match with the service type.")
    /// `errSecPVCReferentNotFound`.
    package static let pvcReferentNotFound = KeychainStatus("errSecPVCReferentNotFound", -67669, "A reference to the calling module was not found in the list of authorized callers.")
    /// `errSecFunctionIntegrityFail`.
    package static let functionIntegrityFail = KeychainStatus("errSecFunctionIntegrityFail", -67670, "A function address was not within the verified module.")
    /// `errSecInternalError`.
    package static let internalError = KeychainStatus("errSecInternalError", -67671, "An internal error has occurred.")
    /// `errSecMemoryError`.
    package static let memoryError = KeychainStatus("errSecMemoryError", -67672, "A memory error has occurred.")
    /// `errSecInvalidData`.
    package static let invalidData = KeychainStatus("errSecInvalidData", -67673, "Invalid data was encountered.")
    /// `errSecMDSError`.
    package static let mdsError = KeychainStatus("errSecMDSError", -67674, "A Module Directory Service error has occurred.")
    /// `errSecInvalidPointer`.
    package static let invalidPointer = KeychainStatus("errSecInvalidPointer", -67675, "An invalid pointer was encountered.")
    /// `errSecSelfCheckFailed`.
    package static let selfCheckFailed = KeychainStatus("errSecSelfCheckFailed", -67676, "Self-check has failed.")
    /// `errSecFunctionFailed`.
    package static let functionFailed = KeychainStatus("errSecFunctionFailed", -67677, "A function has failed.")
    /// `errSecModuleManifestVerifyFailed`.
    package static let moduleManifestVerifyFailed = KeychainStatus("errSecModuleManifestVerifyFailed", -67678, "A module manifest verification failure has occurred.")
    /// `errSecInvalidGUID`.
    package static let invalidGUID = KeychainStatus("errSecInvalidGUID", -67679, "An invalid GUID was encountered.")
    /// `errSecInvalidHandle`.
    package static let invalidHandle = KeychainStatus("errSecInvalidHandle", -67680, "An invalid handle was encountered.")
    /// `errSecInvalidDBList`.
    package static let invalidDBList = KeychainStatus("errSecInvalidDBList", -67681, "An invalid DB list was encountered.")
    /// `errSecInvalidPassthroughID`.
    package static let invalidPassthroughID = KeychainStatus("errSecInvalidPassthroughID", -67682, "An invalid passthrough ID was encountered.")
    /// `errSecInvalidNetworkAddress`.
    package static let invalidNetworkAddress = KeychainStatus("errSecInvalidNetworkAddress", -67683, "An invalid network address was encountered.")
    /// `errSecCRLAlreadySigned`.
    package static let crlAlreadySigned = KeychainStatus("errSecCRLAlreadySigned", -67684, "The certificate revocation list is already signed.")
    /// `errSecInvalidNumberOfFields`.
    package static let invalidNumberOfFields = KeychainStatus("errSecInvalidNumberOfFields", -67685, "An invalid number of fields were encountered.")
    /// `errSecVerificationFailure`.
    package static let verificationFailure = KeychainStatus("errSecVerificationFailure", -67686, "A verification failure occurred.")
    /// `errSecUnknownTag`.
    package static let unknownTag = KeychainStatus("errSecUnknownTag", -67687, "An unknown tag was encountered.")
    /// `errSecInvalidSignature`.
    package static let invalidSignature = KeychainStatus("errSecInvalidSignature", -67688, "An invalid signature was encountered.")
    /// `errSecInvalidName`.
    package static let invalidName = KeychainStatus("errSecInvalidName", -67689, "An invalid name was encountered.")
    /// `errSecInvalidCertificateRef`.
    package static let invalidCertificateRef = KeychainStatus("errSecInvalidCertificateRef", -67690, "An invalid certificate reference was encountered.")
    /// `errSecInvalidCertificateGroup`.
    package static let invalidCertificateGroup = KeychainStatus("errSecInvalidCertificateGroup", -67691, "An invalid certificate group was encountered.")
    /// `errSecTagNotFound`.
    package static let tagNotFound = KeychainStatus("errSecTagNotFound", -67692, "The specified tag was not found.")
    /// `errSecInvalidQuery`.
    package static let invalidQuery = KeychainStatus("errSecInvalidQuery", -67693, "The specified query was not valid.")
    /// `errSecInvalidValue`.
    package static let invalidValue = KeychainStatus("errSecInvalidValue", -67694, "An invalid value was detected.")
    /// `errSecCallbackFailed`.
    package static let callbackFailed = KeychainStatus("errSecCallbackFailed", -67695, "A callback has failed.")
    /// `errSecACLDeleteFailed`.
    package static let aclDeleteFailed = KeychainStatus("errSecACLDeleteFailed", -67696, "An ACL delete operation has failed.")
    /// `errSecACLReplaceFailed`.
    package static let aclReplaceFailed = KeychainStatus("errSecACLReplaceFailed", -67697, "An ACL replace operation has failed.")
    /// `errSecACLAddFailed`.
    package static let aclAddFailed = KeychainStatus("errSecACLAddFailed", -67698, "An ACL add operation has failed.")
    /// `errSecACLChangeFailed`.
    package static let aclChangeFailed = KeychainStatus("errSecACLChangeFailed", -67699, "An ACL change operation has failed.")
    /// `errSecInvalidAccessCredentials`.
    package static let invalidAccessCredentials = KeychainStatus("errSecInvalidAccessCredentials", -67700, "Invalid access credentials were encountered.")
    /// `errSecInvalidRecord`.
    package static let invalidRecord = KeychainStatus("errSecInvalidRecord", -67701, "An invalid record was encountered.")
    /// `errSecInvalidACL`.
    package static let invalidACL = KeychainStatus("errSecInvalidACL", -67702, "An invalid ACL was encountered.")
    /// `errSecInvalidSampleValue`.
    package static let invalidSampleValue = KeychainStatus("errSecInvalidSampleValue", -67703, "An invalid sample value was encountered.")
    /// `errSecIncompatibleVersion`.
    package static let incompatibleVersion = KeychainStatus("errSecIncompatibleVersion", -67704, "An incompatible version was encountered.")
    /// `errSecPrivilegeNotGranted`.
    package static let privilegeNotGranted = KeychainStatus("errSecPrivilegeNotGranted", -67705, "The privilege was not granted.")
    /// `errSecInvalidScope`.
    package static let invalidScope = KeychainStatus("errSecInvalidScope", -67706, "An invalid scope was encountered.")
    /// `errSecPVCAlreadyConfigured`.
    package static let pvcAlreadyConfigured = KeychainStatus("errSecPVCAlreadyConfigured", -67707, "The PVC is already configured.")
    /// `errSecInvalidPVC`.
    package static let invalidPVC = KeychainStatus("errSecInvalidPVC", -67708, "An invalid PVC was encountered.")
    /// `errSecEMMLoadFailed`.
    package static let emmLoadFailed = KeychainStatus("errSecEMMLoadFailed", -67709, "The EMM load has failed.")
    /// `errSecEMMUnloadFailed`.
    package static let emmUnloadFailed = KeychainStatus("errSecEMMUnloadFailed", -67710, "The EMM unload has failed.")
    /// `errSecAddinLoadFailed`.
    package static let addinLoadFailed = KeychainStatus("errSecAddinLoadFailed", -67711, "The add-in load operation has failed.")
    /// `errSecInvalidKeyRef`.
    package static let invalidKeyRef = KeychainStatus("errSecInvalidKeyRef", -67712, "An invalid key was encountered.")
    /// `errSecInvalidKeyHierarchy`.
    package static let invalidKeyHierarchy = KeychainStatus("errSecInvalidKeyHierarchy", -67713, "An invalid key hierarchy was encountered.")
    /// `errSecAddinUnloadFailed`.
    package static let addinUnloadFailed = KeychainStatus("errSecAddinUnloadFailed", -67714, "The add-in unload operation has failed.")
    /// `errSecLibraryReferenceNotFound`.
    package static let libraryReferenceNotFound = KeychainStatus("errSecLibraryReferenceNotFound", -67715, "A library reference was not found.")
    /// `errSecInvalidAddinFunctionTable`.
    package static let invalidAddinFunctionTable = KeychainStatus("errSecInvalidAddinFunctionTable", -67716, "An invalid add-in function table was encountered.")
    /// `errSecInvalidServiceMask`.
    package static let invalidServiceMask = KeychainStatus("errSecInvalidServiceMask", -67717, "An invalid service mask was encountered.")
    /// `errSecModuleNotLoaded`.
    package static let moduleNotLoaded = KeychainStatus("errSecModuleNotLoaded", -67718, "A module was not loaded.")
    /// `errSecInvalidSubServiceID`.
    package static let invalidSubServiceID = KeychainStatus("errSecInvalidSubServiceID", -67719, "An invalid subservice ID was encountered.")
    /// `errSecAttributeNotInContext`.
    package static let attributeNotInContext = KeychainStatus("errSecAttributeNotInContext", -67720, "An attribute was not in the context.")
    /// `errSecModuleManagerInitializeFailed`.
    package static let moduleManagerInitializeFailed = KeychainStatus("errSecModuleManagerInitializeFailed", -67721, "A module failed to initialize.")
    /// `errSecModuleManagerNotFound`.
    package static let moduleManagerNotFound = KeychainStatus("errSecModuleManagerNotFound", -67722, "A module was not found.")
    /// `errSecEventNotificationCallbackNotFound`.
    package static let eventNotificationCallbackNotFound = KeychainStatus("errSecEventNotificationCallbackNotFound", -67723, "An event notification callback was not found.")
    /// `errSecInputLengthError`.
    package static let inputLengthError = KeychainStatus("errSecInputLengthError", -67724, "An input length error was encountered.")
    /// `errSecOutputLengthError`.
    package static let outputLengthError = KeychainStatus("errSecOutputLengthError", -67725, "An output length error was encountered.")
    /// `errSecPrivilegeNotSupported`.
    package static let privilegeNotSupported = KeychainStatus("errSecPrivilegeNotSupported", -67726, "The privilege is not supported.")
    /// `errSecDeviceError`.
    package static let deviceError = KeychainStatus("errSecDeviceError", -67727, "A device error was encountered.")
    /// `errSecAttachHandleBusy`.
    package static let attachHandleBusy = KeychainStatus("errSecAttachHandleBusy", -67728, "The CSP handle was busy.")
    /// `errSecNotLoggedIn`.
    package static let notLoggedIn = KeychainStatus("errSecNotLoggedIn", -67729, "You are not logged in.")
    /// `errSecAlgorithmMismatch`.
    package static let algorithmMismatch = KeychainStatus("errSecAlgorithmMismatch", -67730, "An algorithm mismatch was encountered.")
    /// `errSecKeyUsageIncorrect`.
    package static let keyUsageIncorrect = KeychainStatus("errSecKeyUsageIncorrect", -67731, "The key usage is incorrect.")
    /// `errSecKeyBlobTypeIncorrect`.
    package static let keyBlobTypeIncorrect = KeychainStatus("errSecKeyBlobTypeIncorrect", -67732, "The key blob type is incorrect.")
    /// `errSecKeyHeaderInconsistent`.
    package static let keyHeaderInconsistent = KeychainStatus("errSecKeyHeaderInconsistent", -67733, "The key header is inconsistent.")
    /// `errSecUnsupportedKeyFormat`.
    package static let unsupportedKeyFormat = KeychainStatus("errSecUnsupportedKeyFormat", -67734, "The key header format is not supported.")
    /// `errSecUnsupportedKeySize`.
    package static let unsupportedKeySize = KeychainStatus("errSecUnsupportedKeySize", -67735, "The key size is not supported.")
    /// `errSecInvalidKeyUsageMask`.
    package static let invalidKeyUsageMask = KeychainStatus("errSecInvalidKeyUsageMask", -67736, "The key usage mask is not valid.")
    /// `errSecUnsupportedKeyUsageMask`.
    package static let unsupportedKeyUsageMask = KeychainStatus("errSecUnsupportedKeyUsageMask", -67737, "The key usage mask is not supported.")
    /// `errSecInvalidKeyAttributeMask`.
    package static let invalidKeyAttributeMask = KeychainStatus("errSecInvalidKeyAttributeMask", -67738, "The key attribute mask is not valid.")
    /// `errSecUnsupportedKeyAttributeMask`.
    package static let unsupportedKeyAttributeMask = KeychainStatus("errSecUnsupportedKeyAttributeMask", -67739, "The key attribute mask is not supported.")
    /// `errSecInvalidKeyLabel`.
    package static let invalidKeyLabel = KeychainStatus("errSecInvalidKeyLabel", -67740, "The key label is not valid.")
    /// `errSecUnsupportedKeyLabel`.
    package static let unsupportedKeyLabel = KeychainStatus("errSecUnsupportedKeyLabel", -67741, "The key label is not supported.")
    /// `errSecInvalidKeyFormat`.
    package static let invalidKeyFormat = KeychainStatus("errSecInvalidKeyFormat", -67742, "The key format is not valid.")
    /// `errSecUnsupportedVectorOfBuffers`.
    package static let unsupportedVectorOfBuffers = KeychainStatus("errSecUnsupportedVectorOfBuffers", -67743, "The vector of buffers is not supported.")
    /// `errSecInvalidInputVector`.
    package static let invalidInputVector = KeychainStatus("errSecInvalidInputVector", -67744, "The input vector is not valid.")
    /// `errSecInvalidOutputVector`.
    package static let invalidOutputVector = KeychainStatus("errSecInvalidOutputVector", -67745, "The output vector is not valid.")
    /// `errSecInvalidContext`.
    package static let invalidContext = KeychainStatus("errSecInvalidContext", -67746, "An invalid context was encountered.")
    /// `errSecInvalidAlgorithm`.
    package static let invalidAlgorithm = KeychainStatus("errSecInvalidAlgorithm", -67747, "An invalid algorithm was encountered.")
    /// `errSecInvalidAttributeKey`.
    package static let invalidAttributeKey = KeychainStatus("errSecInvalidAttributeKey", -67748, "A key attribute was not valid.")
    /// `errSecMissingAttributeKey`.
    package static let missingAttributeKey = KeychainStatus("errSecMissingAttributeKey", -67749, "A key attribute was missing.")
    /// `errSecInvalidAttributeInitVector`.
    package static let invalidAttributeInitVector = KeychainStatus("errSecInvalidAttributeInitVector", -67750, "An init vector attribute was not valid.")
    /// `errSecMissingAttributeInitVector`.
    package static let missingAttributeInitVector = KeychainStatus("errSecMissingAttributeInitVector", -67751, "An init vector attribute was missing.")
    /// `errSecInvalidAttributeSalt`.
    package static let invalidAttributeSalt = KeychainStatus("errSecInvalidAttributeSalt", -67752, "A salt attribute was not valid.")
    /// `errSecMissingAttributeSalt`.
    package static let missingAttributeSalt = KeychainStatus("errSecMissingAttributeSalt", -67753, "A salt attribute was missing.")
    /// `errSecInvalidAttributePadding`.
    package static let invalidAttributePadding = KeychainStatus("errSecInvalidAttributePadding", -67754, "A padding attribute was not valid.")
    /// `errSecMissingAttributePadding`.
    package static let missingAttributePadding = KeychainStatus("errSecMissingAttributePadding", -67755, "A padding attribute was missing.")
    /// `errSecInvalidAttributeRandom`.
    package static let invalidAttributeRandom = KeychainStatus("errSecInvalidAttributeRandom", -67756, "A random number attribute was not valid.")
    /// `errSecMissingAttributeRandom`.
    package static let missingAttributeRandom = KeychainStatus("errSecMissingAttributeRandom", -67757, "A random number attribute was missing.")
    /// `errSecInvalidAttributeSeed`.
    package static let invalidAttributeSeed = KeychainStatus("errSecInvalidAttributeSeed", -67758, "A seed attribute was not valid.")
    /// `errSecMissingAttributeSeed`.
    package static let missingAttributeSeed = KeychainStatus("errSecMissingAttributeSeed", -67759, "A seed attribute was missing.")
    /// `errSecInvalidAttributePassphrase`.
    package static let invalidAttributePassphrase = KeychainStatus("errSecInvalidAttributePassphrase", -67760, "A passphrase attribute was not valid.")
    /// `errSecMissingAttributePassphrase`.
    package static let missingAttributePassphrase = KeychainStatus("errSecMissingAttributePassphrase", -67761, "A passphrase attribute was missing.")
    /// `errSecInvalidAttributeKeyLength`.
    package static let invalidAttributeKeyLength = KeychainStatus("errSecInvalidAttributeKeyLength", -67762, "A key length attribute was not valid.")
    /// `errSecMissingAttributeKeyLength`.
    package static let missingAttributeKeyLength = KeychainStatus("errSecMissingAttributeKeyLength", -67763, "A key length attribute was missing.")
    /// `errSecInvalidAttributeBlockSize`.
    package static let invalidAttributeBlockSize = KeychainStatus("errSecInvalidAttributeBlockSize", -67764, "A block size attribute was not valid.")
    /// `errSecMissingAttributeBlockSize`.
    package static let missingAttributeBlockSize = KeychainStatus("errSecMissingAttributeBlockSize", -67765, "A block size attribute was missing.")
    /// `errSecInvalidAttributeOutputSize`.
    package static let invalidAttributeOutputSize = KeychainStatus("errSecInvalidAttributeOutputSize", -67766, "An output size attribute was not valid.")
    /// `errSecMissingAttributeOutputSize`.
    package static let missingAttributeOutputSize = KeychainStatus("errSecMissingAttributeOutputSize", -67767, "An output size attribute was missing.")
    /// `errSecInvalidAttributeRounds`.
    package static let invalidAttributeRounds = KeychainStatus("errSecInvalidAttributeRounds", -67768, "The number of rounds attribute was not valid.")
    /// `errSecMissingAttributeRounds`.
    package static let missingAttributeRounds = KeychainStatus("errSecMissingAttributeRounds", -67769, "The number of rounds attribute was missing.")
    /// `errSecInvalidAlgorithmParms`.
    package static let invalidAlgorithmParms = KeychainStatus("errSecInvalidAlgorithmParms", -67770, "An algorithm parameters attribute was not valid.")
    /// `errSecMissingAlgorithmParms`.
    package static let missingAlgorithmParms = KeychainStatus("errSecMissingAlgorithmParms", -67771, "An algorithm parameters attribute was missing.")
    /// `errSecInvalidAttributeLabel`.
    package static let invalidAttributeLabel = KeychainStatus("errSecInvalidAttributeLabel", -67772, "A label attribute was not valid.")
    /// `errSecMissingAttributeLabel`.
    package static let missingAttributeLabel = KeychainStatus("errSecMissingAttributeLabel", -67773, "A label attribute was missing.")
    /// `errSecInvalidAttributeKeyType`.
    package static let invalidAttributeKeyType = KeychainStatus("errSecInvalidAttributeKeyType", -67774, "A key type attribute was not valid.")
    /// `errSecMissingAttributeKeyType`.
    package static let missingAttributeKeyType = KeychainStatus("errSecMissingAttributeKeyType", -67775, "A key type attribute was missing.")
    /// `errSecInvalidAttributeMode`.
    package static let invalidAttributeMode = KeychainStatus("errSecInvalidAttributeMode", -67776, "A mode attribute was not valid.")
    /// `errSecMissingAttributeMode`.
    package static let missingAttributeMode = KeychainStatus("errSecMissingAttributeMode", -67777, "A mode attribute was missing.")
    /// `errSecInvalidAttributeEffectiveBits`.
    package static let invalidAttributeEffectiveBits = KeychainStatus("errSecInvalidAttributeEffectiveBits", -67778, "An effective bits attribute was not valid.")
    /// `errSecMissingAttributeEffectiveBits`.
    package static let missingAttributeEffectiveBits = KeychainStatus("errSecMissingAttributeEffectiveBits", -67779, "An effective bits attribute was missing.")
    /// `errSecInvalidAttributeStartDate`.
    package static let invalidAttributeStartDate = KeychainStatus("errSecInvalidAttributeStartDate", -67780, "A start date attribute was not valid.")
    /// `errSecMissingAttributeStartDate`.
    package static let missingAttributeStartDate = KeychainStatus("errSecMissingAttributeStartDate", -67781, "A start date attribute was missing.")
    /// `errSecInvalidAttributeEndDate`.
    package static let invalidAttributeEndDate = KeychainStatus("errSecInvalidAttributeEndDate", -67782, "An end date attribute was not valid.")
    /// `errSecMissingAttributeEndDate`.
    package static let missingAttributeEndDate = KeychainStatus("errSecMissingAttributeEndDate", -67783, "An end date attribute was missing.")
    /// `errSecInvalidAttributeVersion`.
    package static let invalidAttributeVersion = KeychainStatus("errSecInvalidAttributeVersion", -67784, "A version attribute was not valid.")
    /// `errSecMissingAttributeVersion`.
    package static let missingAttributeVersion = KeychainStatus("errSecMissingAttributeVersion", -67785, "A version attribute was missing.")
    /// `errSecInvalidAttributePrime`.
    package static let invalidAttributePrime = KeychainStatus("errSecInvalidAttributePrime", -67786, "A prime attribute was not valid.")
    /// `errSecMissingAttributePrime`.
    package static let missingAttributePrime = KeychainStatus("errSecMissingAttributePrime", -67787, "A prime attribute was missing.")
    /// `errSecInvalidAttributeBase`.
    package static let invalidAttributeBase = KeychainStatus("errSecInvalidAttributeBase", -67788, "A base attribute was not valid.")
    /// `errSecMissingAttributeBase`.
    package static let missingAttributeBase = KeychainStatus("errSecMissingAttributeBase", -67789, "A base attribute was missing.")
    /// `errSecInvalidAttributeSubprime`.
    package static let invalidAttributeSubprime = KeychainStatus("errSecInvalidAttributeSubprime", -67790, "A subprime attribute was not valid.")
    /// `errSecMissingAttributeSubprime`.
    package static let missingAttributeSubprime = KeychainStatus("errSecMissingAttributeSubprime", -67791, "A subprime attribute was missing.")
    /// `errSecInvalidAttributeIterationCount`.
    package static let invalidAttributeIterationCount = KeychainStatus("errSecInvalidAttributeIterationCount", -67792, "An iteration count attribute was not valid.")
    /// `errSecMissingAttributeIterationCount`.
    package static let missingAttributeIterationCount = KeychainStatus("errSecMissingAttributeIterationCount", -67793, "An iteration count attribute was missing.")
    /// `errSecInvalidAttributeDLDBHandle`.
    package static let invalidAttributeDLDBHandle = KeychainStatus("errSecInvalidAttributeDLDBHandle", -67794, "A database handle attribute was not valid.")
    /// `errSecMissingAttributeDLDBHandle`.
    package static let missingAttributeDLDBHandle = KeychainStatus("errSecMissingAttributeDLDBHandle", -67795, "A database handle attribute was missing.")
    /// `errSecInvalidAttributeAccessCredentials`.
    package static let invalidAttributeAccessCredentials = KeychainStatus("errSecInvalidAttributeAccessCredentials", -67796, "An access credentials attribute was not valid.")
    /// `errSecMissingAttributeAccessCredentials`.
    package static let missingAttributeAccessCredentials = KeychainStatus("errSecMissingAttributeAccessCredentials", -67797, "An access credentials attribute was missing.")
    /// `errSecInvalidAttributePublicKeyFormat`.
    package static let invalidAttributePublicKeyFormat = KeychainStatus("errSecInvalidAttributePublicKeyFormat", -67798, "A public key format attribute was not valid.")
    /// `errSecMissingAttributePublicKeyFormat`.
    package static let missingAttributePublicKeyFormat = KeychainStatus("errSecMissingAttributePublicKeyFormat", -67799, "A public key format attribute was missing.")
    /// `errSecInvalidAttributePrivateKeyFormat`.
    package static let invalidAttributePrivateKeyFormat = KeychainStatus("errSecInvalidAttributePrivateKeyFormat", -67800, "A private key format attribute was not valid.")
    /// `errSecMissingAttributePrivateKeyFormat`.
    package static let missingAttributePrivateKeyFormat = KeychainStatus("errSecMissingAttributePrivateKeyFormat", -67801, "A private key format attribute was missing.")
    /// `errSecInvalidAttributeSymmetricKeyFormat`.
    package static let invalidAttributeSymmetricKeyFormat = KeychainStatus("errSecInvalidAttributeSymmetricKeyFormat", -67802, "A symmetric key format attribute was not valid.")
    /// `errSecMissingAttributeSymmetricKeyFormat`.
    package static let missingAttributeSymmetricKeyFormat = KeychainStatus("errSecMissingAttributeSymmetricKeyFormat", -67803, "A symmetric key format attribute was missing.")
    /// `errSecInvalidAttributeWrappedKeyFormat`.
    package static let invalidAttributeWrappedKeyFormat = KeychainStatus("errSecInvalidAttributeWrappedKeyFormat", -67804, "A wrapped key format attribute was not valid.")
    /// `errSecMissingAttributeWrappedKeyFormat`.
    package static let missingAttributeWrappedKeyFormat = KeychainStatus("errSecMissingAttributeWrappedKeyFormat", -67805, "A wrapped key format attribute was missing.")
    /// `errSecStagedOperationInProgress`.
    package static let stagedOperationInProgress = KeychainStatus("errSecStagedOperationInProgress", -67806, "A staged operation is in progress.")
    /// `errSecStagedOperationNotStarted`.
    package static let stagedOperationNotStarted = KeychainStatus("errSecStagedOperationNotStarted", -67807, "A staged operation was not started.")
    /// `errSecVerifyFailed`.
    package static let verifyFailed = KeychainStatus("errSecVerifyFailed", -67808, "A cryptographic verification failure has occurred.")
    /// `errSecQuerySizeUnknown`.
    package static let querySizeUnknown = KeychainStatus("errSecQuerySizeUnknown", -67809, "The query size is unknown.")
    /// `errSecBlockSizeMismatch`.
    package static let blockSizeMismatch = KeychainStatus("errSecBlockSizeMismatch", -67810, "A block size mismatch occurred.")
    /// `errSecPublicKeyInconsistent`.
    package static let publicKeyInconsistent = KeychainStatus("errSecPublicKeyInconsistent", -67811, "The public key was inconsistent.")
    /// `errSecDeviceVerifyFailed`.
    package static let deviceVerifyFailed = KeychainStatus("errSecDeviceVerifyFailed", -67812, "A device verification failure has occurred.")
    /// `errSecInvalidLoginName`.
    package static let invalidLoginName = KeychainStatus("errSecInvalidLoginName", -67813, "An invalid login name was detected.")
    /// `errSecAlreadyLoggedIn`.
    package static let alreadyLoggedIn = KeychainStatus("errSecAlreadyLoggedIn", -67814, "The user is already logged in.")
    /// `errSecInvalidDigestAlgorithm`.
    package static let invalidDigestAlgorithm = KeychainStatus("errSecInvalidDigestAlgorithm", -67815, "An invalid digest algorithm was detected.")
    /// `errSecInvalidCRLGroup`.
    package static let invalidCRLGroup = KeychainStatus("errSecInvalidCRLGroup", -67816, "An invalid CRL group was detected.")
    /// `errSecCertificateCannotOperate`.
    package static let certificateCannotOperate = KeychainStatus("errSecCertificateCannotOperate", -67817, "The certificate cannot operate.")
    /// `errSecCertificateExpired`.
    package static let certificateExpired = KeychainStatus("errSecCertificateExpired", -67818, "An expired certificate was detected.")
    /// `errSecCertificateNotValidYet`.
    package static let certificateNotValidYet = KeychainStatus("errSecCertificateNotValidYet", -67819, "The certificate is not yet valid.")
    /// `errSecCertificateRevoked`.
    package static let certificateRevoked = KeychainStatus("errSecCertificateRevoked", -67820, "The certificate was revoked.")
    /// `errSecCertificateSuspended`.
    package static let certificateSuspended = KeychainStatus("errSecCertificateSuspended", -67821, "The certificate was suspended.")
    /// `errSecInsufficientCredentials`.
    package static let insufficientCredentials = KeychainStatus("errSecInsufficientCredentials", -67822, "Insufficient credentials were detected.")
    /// `errSecInvalidAction`.
    package static let invalidAction = KeychainStatus("errSecInvalidAction", -67823, "The action was not valid.")
    /// `errSecInvalidAuthority`.
    package static let invalidAuthority = KeychainStatus("errSecInvalidAuthority", -67824, "The authority was not valid.")
    /// `errSecVerifyActionFailed`.
    package static let verifyActionFailed = KeychainStatus("errSecVerifyActionFailed", -67825, "A verify action has failed.")
    /// `errSecInvalidCertAuthority`.
    package static let invalidCertAuthority = KeychainStatus("errSecInvalidCertAuthority", -67826, "The certificate authority was not valid.")
    /// `errSecInvalidCRLAuthority`.
    package static let invalidCRLAuthority = KeychainStatus("errSecInvalidCRLAuthority", -67827, "The CRL authority was not valid.")
    /// `errSecInvalidCRLEncoding`.
    package static let invalidCRLEncoding = KeychainStatus("errSecInvalidCRLEncoding", -67828, "The CRL encoding was not valid.")
    /// `errSecInvalidCRLType`.
    package static let invalidCRLType = KeychainStatus("errSecInvalidCRLType", -67829, "The CRL type was not valid.")
    /// `errSecInvalidCRL`.
    package static let invalidCRL = KeychainStatus("errSecInvalidCRL", -67830, "The CRL was not valid.")
    /// `errSecInvalidFormType`.
    package static let invalidFormType = KeychainStatus("errSecInvalidFormType", -67831, "The form type was not valid.")
    /// `errSecInvalidID`.
    package static let invalidID = KeychainStatus("errSecInvalidID", -67832, "The ID was not valid.")
    /// `errSecInvalidIdentifier`.
    package static let invalidIdentifier = KeychainStatus("errSecInvalidIdentifier", -67833, "The identifier was not valid.")
    /// `errSecInvalidIndex`.
    package static let invalidIndex = KeychainStatus("errSecInvalidIndex", -67834, "The index was not valid.")
    /// `errSecInvalidPolicyIdentifiers`.
    package static let invalidPolicyIdentifiers = KeychainStatus("errSecInvalidPolicyIdentifiers", -67835, "The policy identifiers are not valid.")
    /// `errSecInvalidTimeString`.
    package static let invalidTimeString = KeychainStatus("errSecInvalidTimeString", -67836, "The time specified was not valid.")
    /// `errSecInvalidReason`.
    package static let invalidReason = KeychainStatus("errSecInvalidReason", -67837, "The trust policy reason was not valid.")
    /// `errSecInvalidRequestInputs`.
    package static let invalidRequestInputs = KeychainStatus("errSecInvalidRequestInputs", -67838, "The request inputs are not valid.")
    /// `errSecInvalidResponseVector`.
    package static let invalidResponseVector = KeychainStatus("errSecInvalidResponseVector", -67839, "The response vector was not valid.")
    /// `errSecInvalidStopOnPolicy`.
    package static let invalidStopOnPolicy = KeychainStatus("errSecInvalidStopOnPolicy", -67840, "The stop-on policy was not valid.")
    /// `errSecInvalidTuple`.
    package static let invalidTuple = KeychainStatus("errSecInvalidTuple", -67841, "The tuple was not valid.")
    /// `errSecMultipleValuesUnsupported`.
    package static let multipleValuesUnsupported = KeychainStatus("errSecMultipleValuesUnsupported", -67842, "Multiple values are not supported.")
    /// `errSecNotTrusted`.
    package static let notTrusted = KeychainStatus("errSecNotTrusted", -67843, "The certificate was not trusted.")
    /// `errSecNoDefaultAuthority`.
    package static let noDefaultAuthority = KeychainStatus("errSecNoDefaultAuthority", -67844, "No default authority was detected.")
    /// `errSecRejectedForm`.
    package static let rejectedForm = KeychainStatus("errSecRejectedForm", -67845, "The trust policy had a rejected form.")
    /// `errSecRequestLost`.
    package static let requestLost = KeychainStatus("errSecRequestLost", -67846, "The request was lost.")
    /// `errSecRequestRejected`.
    package static let requestRejected = KeychainStatus("errSecRequestRejected", -67847, "The request was rejected.")
    /// `errSecUnsupportedAddressType`.
    package static let unsupportedAddressType = KeychainStatus("errSecUnsupportedAddressType", -67848, "The address type is not supported.")
    /// `errSecUnsupportedService`.
    package static let unsupportedService = KeychainStatus("errSecUnsupportedService", -67849, "The service is not supported.")
    /// `errSecInvalidTupleGroup`.
    package static let invalidTupleGroup = KeychainStatus("errSecInvalidTupleGroup", -67850, "The tuple group was not valid.")
    /// `errSecInvalidBaseACLs`.
    package static let invalidBaseACLs = KeychainStatus("errSecInvalidBaseACLs", -67851, "The base ACLs are not valid.")
    /// `errSecInvalidTupleCredentials`.
    package static let invalidTupleCredentials = KeychainStatus("errSecInvalidTupleCredentials", -67852, "The tuple credentials are not valid.")
    /// `errSecInvalidEncoding`.
    package static let invalidEncoding = KeychainStatus("errSecInvalidEncoding", -67853, "The encoding was not valid.")
    /// `errSecInvalidValidityPeriod`.
    package static let invalidValidityPeriod = KeychainStatus("errSecInvalidValidityPeriod", -67854, "The validity period was not valid.")
    /// `errSecInvalidRequestor`.
    package static let invalidRequestor = KeychainStatus("errSecInvalidRequestor", -67855, "The requestor was not valid.")
    /// `errSecRequestDescriptor`.
    package static let requestDescriptor = KeychainStatus("errSecRequestDescriptor", -67856, "The request descriptor was not valid.")
    /// `errSecInvalidBundleInfo`.
    package static let invalidBundleInfo = KeychainStatus("errSecInvalidBundleInfo", -67857, "The bundle information was not valid.")
    /// `errSecInvalidCRLIndex`.
    package static let invalidCRLIndex = KeychainStatus("errSecInvalidCRLIndex", -67858, "The CRL index was not valid.")
    /// `errSecNoFieldValues`.
    package static let noFieldValues = KeychainStatus("errSecNoFieldValues", -67859, "No field values were detected.")
    /// `errSecUnsupportedFieldFormat`.
    package static let unsupportedFieldFormat = KeychainStatus("errSecUnsupportedFieldFormat", -67860, "The field format is not supported.")
    /// `errSecUnsupportedIndexInfo`.
    package static let unsupportedIndexInfo = KeychainStatus("errSecUnsupportedIndexInfo", -67861, "The index information is not supported.")
    /// `errSecUnsupportedLocality`.
    package static let unsupportedLocality = KeychainStatus("errSecUnsupportedLocality", -67862, "The locality is not supported.")
    /// `errSecUnsupportedNumAttributes`.
    package static let unsupportedNumAttributes = KeychainStatus("errSecUnsupportedNumAttributes", -67863, "The number of attributes is not supported.")
    /// `errSecUnsupportedNumIndexes`.
    package static let unsupportedNumIndexes = KeychainStatus("errSecUnsupportedNumIndexes", -67864, "The number of indexes is not supported.")
    /// `errSecUnsupportedNumRecordTypes`.
    package static let unsupportedNumRecordTypes = KeychainStatus("errSecUnsupportedNumRecordTypes", -67865, "The number of record types is not supported.")
    /// `errSecFieldSpecifiedMultiple`.
    package static let fieldSpecifiedMultiple = KeychainStatus("errSecFieldSpecifiedMultiple", -67866, "Too many fields were specified.")
    /// `errSecIncompatibleFieldFormat`.
    package static let incompatibleFieldFormat = KeychainStatus("errSecIncompatibleFieldFormat", -67867, "The field format was incompatible.")
    /// `errSecInvalidParsingModule`.
    package static let invalidParsingModule = KeychainStatus("errSecInvalidParsingModule", -67868, "The parsing module was not valid.")
    /// `errSecDatabaseLocked`.
    package static let databaseLocked = KeychainStatus("errSecDatabaseLocked", -67869, "The database is locked.")
    /// `errSecDatastoreIsOpen`.
    package static let datastoreIsOpen = KeychainStatus("errSecDatastoreIsOpen", -67870, "The data store is open.")
    /// `errSecMissingValue`.
    package static let missingValue = KeychainStatus("errSecMissingValue", -67871, "A missing value was detected.")
    /// `errSecUnsupportedQueryLimits`.
    package static let unsupportedQueryLimits = KeychainStatus("errSecUnsupportedQueryLimits", -67872, "The query limits are not supported.")
    /// `errSecUnsupportedNumSelectionPreds`.
    package static let unsupportedNumSelectionPreds = KeychainStatus("errSecUnsupportedNumSelectionPreds", -67873, "The number of selection predicates is not supported.")
    /// `errSecUnsupportedOperator`.
    package static let unsupportedOperator = KeychainStatus("errSecUnsupportedOperator", -67874, "The operator is not supported.")
    /// `errSecInvalidDBLocation`.
    package static let invalidDBLocation = KeychainStatus("errSecInvalidDBLocation", -67875, "The database location is not valid.")
    /// `errSecInvalidAccessRequest`.
    package static let invalidAccessRequest = KeychainStatus("errSecInvalidAccessRequest", -67876, "The access request is not valid.")
    /// `errSecInvalidIndexInfo`.
    package static let invalidIndexInfo = KeychainStatus("errSecInvalidIndexInfo", -67877, "The index information is not valid.")
    /// `errSecInvalidNewOwner`.
    package static let invalidNewOwner = KeychainStatus("errSecInvalidNewOwner", -67878, "The new owner is not valid.")
    /// `errSecInvalidModifyMode`.
    package static let invalidModifyMode = KeychainStatus("errSecInvalidModifyMode", -67879, "The modify mode is not valid.")
    /// `errSecMissingRequiredExtension`.
    package static let missingRequiredExtension = KeychainStatus("errSecMissingRequiredExtension", -67880, "A required certificate extension is missing.")
    /// `errSecExtendedKeyUsageNotCritical`.
    package static let extendedKeyUsageNotCritical = KeychainStatus("errSecExtendedKeyUsageNotCritical", -67881, "The extended key usage extension was not marked critical.")
    /// `errSecTimestampMissing`.
    package static let timestampMissing = KeychainStatus("errSecTimestampMissing", -67882, "A timestamp was expected but was not found.")
    /// `errSecTimestampInvalid`.
    package static let timestampInvalid = KeychainStatus("errSecTimestampInvalid", -67883, "The timestamp was not valid.")
    /// `errSecTimestampNotTrusted`.
    package static let timestampNotTrusted = KeychainStatus("errSecTimestampNotTrusted", -67884, "The timestamp was not trusted.")
    /// `errSecTimestampServiceNotAvailable`.
    package static let timestampServiceNotAvailable = KeychainStatus("errSecTimestampServiceNotAvailable", -67885, "The timestamp service is not available.")
    /// `errSecTimestampBadAlg`.
    package static let timestampBadAlg = KeychainStatus("errSecTimestampBadAlg", -67886, "An unrecognized or unsupported Algorithm Identifier in timestamp.")
    /// `errSecTimestampBadRequest`.
    package static let timestampBadRequest = KeychainStatus("errSecTimestampBadRequest", -67887, "The timestamp transaction is not permitted or supported.")
    /// `errSecTimestampBadDataFormat`.
    package static let timestampBadDataFormat = KeychainStatus("errSecTimestampBadDataFormat", -67888, "The timestamp data submitted has the wrong format.")
    /// `errSecTimestampTimeNotAvailable`.
    package static let timestampTimeNotAvailable = KeychainStatus("errSecTimestampTimeNotAvailable", -67889, "The time source for the Timestamp Authority is not available.")
    /// `errSecTimestampUnacceptedPolicy`.
    package static let timestampUnacceptedPolicy = KeychainStatus("errSecTimestampUnacceptedPolicy", -67890, "The requested policy is not supported by the Timestamp Authority.")
    /// `errSecTimestampUnacceptedExtension`.
    package static let timestampUnacceptedExtension = KeychainStatus("errSecTimestampUnacceptedExtension", -67891, "The requested extension is not supported by the Timestamp Authority.")
    /// `errSecTimestampAddInfoNotAvailable`.
    package static let timestampAddInfoNotAvailable = KeychainStatus("errSecTimestampAddInfoNotAvailable", -67892, "The additional information requested is not available.")
    /// `errSecTimestampSystemFailure`.
    package static let timestampSystemFailure = KeychainStatus("errSecTimestampSystemFailure", -67893, "The timestamp request cannot be handled due to system failure.")
    /// `errSecSigningTimeMissing`.
    package static let signingTimeMissing = KeychainStatus("errSecSigningTimeMissing", -67894, "A signing time was expected but was not found.")
    /// `errSecTimestampRejection`.
    package static let timestampRejection = KeychainStatus("errSecTimestampRejection", -67895, "A timestamp transaction was rejected.")
    /// `errSecTimestampWaiting`.
    package static let timestampWaiting = KeychainStatus("errSecTimestampWaiting", -67896, "A timestamp transaction is waiting.")
    /// `errSecTimestampRevocationWarning`.
    package static let timestampRevocationWarning = KeychainStatus("errSecTimestampRevocationWarning", -67897, "A timestamp authority revocation warning was issued.")
    /// `errSecTimestampRevocationNotification`.
    package static let timestampRevocationNotification = KeychainStatus("errSecTimestampRevocationNotification", -67898, "A timestamp authority revocation notification was issued.")
    /// `errSecCertificatePolicyNotAllowed`.
    package static let certificatePolicyNotAllowed = KeychainStatus("errSecCertificatePolicyNotAllowed", -67899, "The requested policy is not allowed for this certificate.")
    /// `errSecCertificateNameNotAllowed`.
    package static let certificateNameNotAllowed = KeychainStatus("errSecCertificateNameNotAllowed", -67900, "The requested name is not allowed for this certificate.")
    /// `errSecCertificateValidityPeriodTooLong`.
    package static let certificateValidityPeriodTooLong = KeychainStatus("errSecCertificateValidityPeriodTooLong", -67901, "The validity period in the certificate exceeds the maximum allowed.")
    /// `errSecCertificateIsCA`.
    package static let certificateIsCA = KeychainStatus("errSecCertificateIsCA", -67902, "The verified certificate is a CA rather than an end-entity")
    /// `errSecCertificateDuplicateExtension`.
    package static let certificateDuplicateExtension = KeychainStatus("errSecCertificateDuplicateExtension", -67903, "The certificate contains multiple extensions with the same extension ID.")

    /// Every status of `SecBase.h`, in the header's order.
    package static let all: [KeychainStatus] = [
        .success,
        .unimplemented,
        .diskFull,
        .io,
        .opWr,
        .param,
        .wrPerm,
        .allocate,
        .userCanceled,
        .badReq,
        .internalComponent,
        .coreFoundationUnknown,
        .missingEntitlement,
        .restrictedAPI,
        .notAvailable,
        .readOnly,
        .authFailed,
        .noSuchKeychain,
        .invalidKeychain,
        .duplicateKeychain,
        .duplicateCallback,
        .invalidCallback,
        .duplicateItem,
        .itemNotFound,
        .bufferTooSmall,
        .dataTooLarge,
        .noSuchAttribute,
        .invalidItemRef,
        .invalidSearchRef,
        .noSuchClass,
        .noDefaultKeychain,
        .interactionNotAllowed,
        .readOnlyAttr,
        .wrongVersion,
        .keySizeNotAllowed,
        .noStorageModule,
        .noCertificateModule,
        .noPolicyModule,
        .interactionRequired,
        .dataNotAvailable,
        .dataNotModifiable,
        .createChainFailed,
        .invalidPrefsDomain,
        .inDarkWake,
        .aclNotSimple,
        .policyNotFound,
        .invalidTrustSetting,
        .noAccessForItem,
        .invalidOwnerEdit,
        .trustNotAvailable,
        .unsupportedFormat,
        .unknownFormat,
        .keyIsSensitive,
        .multiplePrivKeys,
        .passphraseRequired,
        .invalidPasswordRef,
        .invalidTrustSettings,
        .noTrustSettings,
        .pkcs12VerifyFailure,
        .notSigner,
        .decode,
        .serviceNotAvailable,
        .insufficientClientID,
        .deviceReset,
        .deviceFailed,
        .appleAddAppACLSubject,
        .applePublicKeyIncomplete,
        .appleSignatureMismatch,
        .appleInvalidKeyStartDate,
        .appleInvalidKeyEndDate,
        .conversionError,
        .appleSSLv2Rollback,
        .quotaExceeded,
        .fileTooBig,
        .invalidDatabaseBlob,
        .invalidKeyBlob,
        .incompatibleDatabaseBlob,
        .incompatibleKeyBlob,
        .hostNameMismatch,
        .unknownCriticalExtensionFlag,
        .noBasicConstraints,
        .noBasicConstraintsCA,
        .invalidAuthorityKeyID,
        .invalidSubjectKeyID,
        .invalidKeyUsageForPolicy,
        .invalidExtendedKeyUsage,
        .invalidIDLinkage,
        .pathLengthConstraintExceeded,
        .invalidRoot,
        .crlExpired,
        .crlNotValidYet,
        .crlNotFound,
        .crlServerDown,
        .crlBadURI,
        .unknownCertExtension,
        .unknownCRLExtension,
        .crlNotTrusted,
        .crlPolicyFailed,
        .idpFailure,
        .smimeEmailAddressesNotFound,
        .smimeBadExtendedKeyUsage,
        .smimeBadKeyUsage,
        .smimeKeyUsageNotCritical,
        .smimeNoEmailAddress,
        .smimeSubjAltNameNotCritical,
        .sslBadExtendedKeyUsage,
        .ocspBadResponse,
        .ocspBadRequest,
        .ocspUnavailable,
        .ocspStatusUnrecognized,
        .endOfData,
        .incompleteCertRevocationCheck,
        .networkFailure,
        .ocspNotTrustedToAnchor,
        .recordModified,
        .ocspSignatureError,
        .ocspNoSigner,
        .ocspResponderMalformedReq,
        .ocspResponderInternalError,
        .ocspResponderTryLater,
        .ocspResponderSignatureRequired,
        .ocspResponderUnauthorized,
        .ocspResponseNonceMismatch,
        .codeSigningBadCertChainLength,
        .codeSigningNoBasicConstraints,
        .codeSigningBadPathLengthConstraint,
        .codeSigningNoExtendedKeyUsage,
        .codeSigningDevelopment,
        .resourceSignBadCertChainLength,
        .resourceSignBadExtKeyUsage,
        .trustSettingDeny,
        .invalidSubjectName,
        .unknownQualifiedCertStatement,
        .mobileMeRequestQueued,
        .mobileMeRequestRedirected,
        .mobileMeServerError,
        .mobileMeServerNotAvailable,
        .mobileMeServerAlreadyExists,
        .mobileMeServerServiceErr,
        .mobileMeRequestAlreadyPending,
        .mobileMeNoRequestPending,
        .mobileMeCSRVerifyFailure,
        .mobileMeFailedConsistencyCheck,
        .notInitialized,
        .invalidHandleUsage,
        .pvcReferentNotFound,
        .functionIntegrityFail,
        .internalError,
        .memoryError,
        .invalidData,
        .mdsError,
        .invalidPointer,
        .selfCheckFailed,
        .functionFailed,
        .moduleManifestVerifyFailed,
        .invalidGUID,
        .invalidHandle,
        .invalidDBList,
        .invalidPassthroughID,
        .invalidNetworkAddress,
        .crlAlreadySigned,
        .invalidNumberOfFields,
        .verificationFailure,
        .unknownTag,
        .invalidSignature,
        .invalidName,
        .invalidCertificateRef,
        .invalidCertificateGroup,
        .tagNotFound,
        .invalidQuery,
        .invalidValue,
        .callbackFailed,
        .aclDeleteFailed,
        .aclReplaceFailed,
        .aclAddFailed,
        .aclChangeFailed,
        .invalidAccessCredentials,
        .invalidRecord,
        .invalidACL,
        .invalidSampleValue,
        .incompatibleVersion,
        .privilegeNotGranted,
        .invalidScope,
        .pvcAlreadyConfigured,
        .invalidPVC,
        .emmLoadFailed,
        .emmUnloadFailed,
        .addinLoadFailed,
        .invalidKeyRef,
        .invalidKeyHierarchy,
        .addinUnloadFailed,
        .libraryReferenceNotFound,
        .invalidAddinFunctionTable,
        .invalidServiceMask,
        .moduleNotLoaded,
        .invalidSubServiceID,
        .attributeNotInContext,
        .moduleManagerInitializeFailed,
        .moduleManagerNotFound,
        .eventNotificationCallbackNotFound,
        .inputLengthError,
        .outputLengthError,
        .privilegeNotSupported,
        .deviceError,
        .attachHandleBusy,
        .notLoggedIn,
        .algorithmMismatch,
        .keyUsageIncorrect,
        .keyBlobTypeIncorrect,
        .keyHeaderInconsistent,
        .unsupportedKeyFormat,
        .unsupportedKeySize,
        .invalidKeyUsageMask,
        .unsupportedKeyUsageMask,
        .invalidKeyAttributeMask,
        .unsupportedKeyAttributeMask,
        .invalidKeyLabel,
        .unsupportedKeyLabel,
        .invalidKeyFormat,
        .unsupportedVectorOfBuffers,
        .invalidInputVector,
        .invalidOutputVector,
        .invalidContext,
        .invalidAlgorithm,
        .invalidAttributeKey,
        .missingAttributeKey,
        .invalidAttributeInitVector,
        .missingAttributeInitVector,
        .invalidAttributeSalt,
        .missingAttributeSalt,
        .invalidAttributePadding,
        .missingAttributePadding,
        .invalidAttributeRandom,
        .missingAttributeRandom,
        .invalidAttributeSeed,
        .missingAttributeSeed,
        .invalidAttributePassphrase,
        .missingAttributePassphrase,
        .invalidAttributeKeyLength,
        .missingAttributeKeyLength,
        .invalidAttributeBlockSize,
        .missingAttributeBlockSize,
        .invalidAttributeOutputSize,
        .missingAttributeOutputSize,
        .invalidAttributeRounds,
        .missingAttributeRounds,
        .invalidAlgorithmParms,
        .missingAlgorithmParms,
        .invalidAttributeLabel,
        .missingAttributeLabel,
        .invalidAttributeKeyType,
        .missingAttributeKeyType,
        .invalidAttributeMode,
        .missingAttributeMode,
        .invalidAttributeEffectiveBits,
        .missingAttributeEffectiveBits,
        .invalidAttributeStartDate,
        .missingAttributeStartDate,
        .invalidAttributeEndDate,
        .missingAttributeEndDate,
        .invalidAttributeVersion,
        .missingAttributeVersion,
        .invalidAttributePrime,
        .missingAttributePrime,
        .invalidAttributeBase,
        .missingAttributeBase,
        .invalidAttributeSubprime,
        .missingAttributeSubprime,
        .invalidAttributeIterationCount,
        .missingAttributeIterationCount,
        .invalidAttributeDLDBHandle,
        .missingAttributeDLDBHandle,
        .invalidAttributeAccessCredentials,
        .missingAttributeAccessCredentials,
        .invalidAttributePublicKeyFormat,
        .missingAttributePublicKeyFormat,
        .invalidAttributePrivateKeyFormat,
        .missingAttributePrivateKeyFormat,
        .invalidAttributeSymmetricKeyFormat,
        .missingAttributeSymmetricKeyFormat,
        .invalidAttributeWrappedKeyFormat,
        .missingAttributeWrappedKeyFormat,
        .stagedOperationInProgress,
        .stagedOperationNotStarted,
        .verifyFailed,
        .querySizeUnknown,
        .blockSizeMismatch,
        .publicKeyInconsistent,
        .deviceVerifyFailed,
        .invalidLoginName,
        .alreadyLoggedIn,
        .invalidDigestAlgorithm,
        .invalidCRLGroup,
        .certificateCannotOperate,
        .certificateExpired,
        .certificateNotValidYet,
        .certificateRevoked,
        .certificateSuspended,
        .insufficientCredentials,
        .invalidAction,
        .invalidAuthority,
        .verifyActionFailed,
        .invalidCertAuthority,
        .invalidCRLAuthority,
        .invalidCRLEncoding,
        .invalidCRLType,
        .invalidCRL,
        .invalidFormType,
        .invalidID,
        .invalidIdentifier,
        .invalidIndex,
        .invalidPolicyIdentifiers,
        .invalidTimeString,
        .invalidReason,
        .invalidRequestInputs,
        .invalidResponseVector,
        .invalidStopOnPolicy,
        .invalidTuple,
        .multipleValuesUnsupported,
        .notTrusted,
        .noDefaultAuthority,
        .rejectedForm,
        .requestLost,
        .requestRejected,
        .unsupportedAddressType,
        .unsupportedService,
        .invalidTupleGroup,
        .invalidBaseACLs,
        .invalidTupleCredentials,
        .invalidEncoding,
        .invalidValidityPeriod,
        .invalidRequestor,
        .requestDescriptor,
        .invalidBundleInfo,
        .invalidCRLIndex,
        .noFieldValues,
        .unsupportedFieldFormat,
        .unsupportedIndexInfo,
        .unsupportedLocality,
        .unsupportedNumAttributes,
        .unsupportedNumIndexes,
        .unsupportedNumRecordTypes,
        .fieldSpecifiedMultiple,
        .incompatibleFieldFormat,
        .invalidParsingModule,
        .databaseLocked,
        .datastoreIsOpen,
        .missingValue,
        .unsupportedQueryLimits,
        .unsupportedNumSelectionPreds,
        .unsupportedOperator,
        .invalidDBLocation,
        .invalidAccessRequest,
        .invalidIndexInfo,
        .invalidNewOwner,
        .invalidModifyMode,
        .missingRequiredExtension,
        .extendedKeyUsageNotCritical,
        .timestampMissing,
        .timestampInvalid,
        .timestampNotTrusted,
        .timestampServiceNotAvailable,
        .timestampBadAlg,
        .timestampBadRequest,
        .timestampBadDataFormat,
        .timestampTimeNotAvailable,
        .timestampUnacceptedPolicy,
        .timestampUnacceptedExtension,
        .timestampAddInfoNotAvailable,
        .timestampSystemFailure,
        .signingTimeMissing,
        .timestampRejection,
        .timestampWaiting,
        .timestampRevocationWarning,
        .timestampRevocationNotification,
        .certificatePolicyNotAllowed,
        .certificateNameNotAllowed,
        .certificateValidityPeriodTooLong,
        .certificateIsCA,
        .certificateDuplicateExtension,
        // Not in SecBase.h: Apple's private header declares it, and Security returns it
        // (SecCertificateCopyCommonName without a common name).
        .internalFramework,
    ]

    private static let messages = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0.message) })

    /// The message of a code of the table; nil for any other code.
    package static func message(for code: Int32) -> String? { messages[code] }
}
