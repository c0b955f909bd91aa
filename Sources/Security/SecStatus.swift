import Foundation
@_implementationOnly import KeychainCore

// The status codes of Keychain Services (every `errSec...` code of Apple's SecBase.h) and
// the messages SecCopyErrorMessageString gives, from the core's one table of them
// (KeychainStatus).

/// 0: No error.
public let errSecSuccess: OSStatus = KeychainStatus.success.code
/// -4: Function or operation not implemented.
public let errSecUnimplemented: OSStatus = KeychainStatus.unimplemented.code
/// -34: The disk is full.
public let errSecDiskFull: OSStatus = KeychainStatus.diskFull.code
/// -36: I/O error.
public let errSecIO: OSStatus = KeychainStatus.io.code
/// -49: File already open with write permission.
public let errSecOpWr: OSStatus = KeychainStatus.opWr.code
/// -50: One or more parameters passed to a function were not valid.
public let errSecParam: OSStatus = KeychainStatus.param.code
/// -61: Write permissions error.
public let errSecWrPerm: OSStatus = KeychainStatus.wrPerm.code
/// -108: Failed to allocate memory.
public let errSecAllocate: OSStatus = KeychainStatus.allocate.code
/// -128: User canceled the operation.
public let errSecUserCanceled: OSStatus = KeychainStatus.userCanceled.code
/// -909: Bad parameter or invalid state for operation.
public let errSecBadReq: OSStatus = KeychainStatus.badReq.code
/// -2070: An internal component experienced an error.
public let errSecInternalComponent: OSStatus = KeychainStatus.internalComponent.code
/// -4960: An unknown Core Foundation error occurred.
public let errSecCoreFoundationUnknown: OSStatus = KeychainStatus.coreFoundationUnknown.code
/// -34018: A required entitlement isn't present.
public let errSecMissingEntitlement: OSStatus = KeychainStatus.missingEntitlement.code
/// -34020: Client is restricted and is not permitted to perform this operation.
public let errSecRestrictedAPI: OSStatus = KeychainStatus.restrictedAPI.code
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
/// -25297: The specified callback function is already installed.
public let errSecDuplicateCallback: OSStatus = KeychainStatus.duplicateCallback.code
/// -25298: The specified callback function is not valid.
public let errSecInvalidCallback: OSStatus = KeychainStatus.invalidCallback.code
/// -25299: The specified item already exists in the keychain.
public let errSecDuplicateItem: OSStatus = KeychainStatus.duplicateItem.code
/// -25300: The specified item could not be found in the keychain.
public let errSecItemNotFound: OSStatus = KeychainStatus.itemNotFound.code
/// -25301: There is not enough memory available to use the specified item.
public let errSecBufferTooSmall: OSStatus = KeychainStatus.bufferTooSmall.code
/// -25302: This item contains information which is too large or in a format that cannot be displayed.
public let errSecDataTooLarge: OSStatus = KeychainStatus.dataTooLarge.code
/// -25303: The specified attribute does not exist.
public let errSecNoSuchAttr: OSStatus = KeychainStatus.noSuchAttribute.code
/// -25304: The specified item is no longer valid. It may have been deleted from the keychain.
public let errSecInvalidItemRef: OSStatus = KeychainStatus.invalidItemRef.code
/// -25305: Unable to search the current keychain.
public let errSecInvalidSearchRef: OSStatus = KeychainStatus.invalidSearchRef.code
/// -25306: The specified item does not appear to be a valid keychain item.
public let errSecNoSuchClass: OSStatus = KeychainStatus.noSuchClass.code
/// -25307: A default keychain could not be found.
public let errSecNoDefaultKeychain: OSStatus = KeychainStatus.noDefaultKeychain.code
/// -25308: User interaction is not allowed.
public let errSecInteractionNotAllowed: OSStatus = KeychainStatus.interactionNotAllowed.code
/// -25309: The specified attribute could not be modified.
public let errSecReadOnlyAttr: OSStatus = KeychainStatus.readOnlyAttr.code
/// -25310: This keychain was created by a different version of the system software and cannot be opened.
public let errSecWrongSecVersion: OSStatus = KeychainStatus.wrongVersion.code
/// -25311: This item specifies a key size which is too large or too small.
public let errSecKeySizeNotAllowed: OSStatus = KeychainStatus.keySizeNotAllowed.code
/// -25312: A required component (data storage module) could not be loaded. You may need to restart your computer.
public let errSecNoStorageModule: OSStatus = KeychainStatus.noStorageModule.code
/// -25313: A required component (certificate module) could not be loaded. You may need to restart your computer.
public let errSecNoCertificateModule: OSStatus = KeychainStatus.noCertificateModule.code
/// -25314: A required component (policy module) could not be loaded. You may need to restart your computer.
public let errSecNoPolicyModule: OSStatus = KeychainStatus.noPolicyModule.code
/// -25315: User interaction is required, but is currently not allowed.
public let errSecInteractionRequired: OSStatus = KeychainStatus.interactionRequired.code
/// -25316: The contents of this item cannot be retrieved.
public let errSecDataNotAvailable: OSStatus = KeychainStatus.dataNotAvailable.code
/// -25317: The contents of this item cannot be modified.
public let errSecDataNotModifiable: OSStatus = KeychainStatus.dataNotModifiable.code
/// -25318: One or more certificates required to validate this certificate cannot be found.
public let errSecCreateChainFailed: OSStatus = KeychainStatus.createChainFailed.code
/// -25319: The specified preferences domain is not valid.
public let errSecInvalidPrefsDomain: OSStatus = KeychainStatus.invalidPrefsDomain.code
/// -25320: In dark wake, no UI possible
public let errSecInDarkWake: OSStatus = KeychainStatus.inDarkWake.code
/// -25240: The specified access control list is not in standard (simple) form.
public let errSecACLNotSimple: OSStatus = KeychainStatus.aclNotSimple.code
/// -25241: The specified policy cannot be found.
public let errSecPolicyNotFound: OSStatus = KeychainStatus.policyNotFound.code
/// -25242: The specified trust setting is invalid.
public let errSecInvalidTrustSetting: OSStatus = KeychainStatus.invalidTrustSetting.code
/// -25243: The specified item has no access control.
public let errSecNoAccessForItem: OSStatus = KeychainStatus.noAccessForItem.code
/// -25244: Invalid attempt to change the owner of this item.
public let errSecInvalidOwnerEdit: OSStatus = KeychainStatus.invalidOwnerEdit.code
/// -25245: No trust results are available.
public let errSecTrustNotAvailable: OSStatus = KeychainStatus.trustNotAvailable.code
/// -25256: Import/Export format unsupported.
public let errSecUnsupportedFormat: OSStatus = KeychainStatus.unsupportedFormat.code
/// -25257: Unknown format in import.
public let errSecUnknownFormat: OSStatus = KeychainStatus.unknownFormat.code
/// -25258: Key material must be wrapped for export.
public let errSecKeyIsSensitive: OSStatus = KeychainStatus.keyIsSensitive.code
/// -25259: An attempt was made to import multiple private keys.
public let errSecMultiplePrivKeys: OSStatus = KeychainStatus.multiplePrivKeys.code
/// -25260: Passphrase is required for import/export.
public let errSecPassphraseRequired: OSStatus = KeychainStatus.passphraseRequired.code
/// -25261: The password reference was invalid.
public let errSecInvalidPasswordRef: OSStatus = KeychainStatus.invalidPasswordRef.code
/// -25262: The Trust Settings Record was corrupted.
public let errSecInvalidTrustSettings: OSStatus = KeychainStatus.invalidTrustSettings.code
/// -25263: No Trust Settings were found.
public let errSecNoTrustSettings: OSStatus = KeychainStatus.noTrustSettings.code
/// -25264: MAC verification failed during PKCS12 import (wrong password?)
public let errSecPkcs12VerifyFailure: OSStatus = KeychainStatus.pkcs12VerifyFailure.code
/// -26267: A certificate was not signed by its proposed parent.
public let errSecNotSigner: OSStatus = KeychainStatus.notSigner.code
/// -26275: Unable to decode the provided data.
public let errSecDecode: OSStatus = KeychainStatus.decode.code
/// -26276: An internal error occurred in the Security framework.
public let errSecInternal: OSStatus = KeychainStatus.internalFramework.code
/// -67585: The required service is not available.
public let errSecServiceNotAvailable: OSStatus = KeychainStatus.serviceNotAvailable.code
/// -67586: The client ID is not correct.
public let errSecInsufficientClientID: OSStatus = KeychainStatus.insufficientClientID.code
/// -67587: A device reset has occurred.
public let errSecDeviceReset: OSStatus = KeychainStatus.deviceReset.code
/// -67588: A device failure has occurred.
public let errSecDeviceFailed: OSStatus = KeychainStatus.deviceFailed.code
/// -67589: Adding an application ACL subject failed.
public let errSecAppleAddAppACLSubject: OSStatus = KeychainStatus.appleAddAppACLSubject.code
/// -67590: The public key is incomplete.
public let errSecApplePublicKeyIncomplete: OSStatus = KeychainStatus.applePublicKeyIncomplete.code
/// -67591: A signature mismatch has occurred.
public let errSecAppleSignatureMismatch: OSStatus = KeychainStatus.appleSignatureMismatch.code
/// -67592: The specified key has an invalid start date.
public let errSecAppleInvalidKeyStartDate: OSStatus = KeychainStatus.appleInvalidKeyStartDate.code
/// -67593: The specified key has an invalid end date.
public let errSecAppleInvalidKeyEndDate: OSStatus = KeychainStatus.appleInvalidKeyEndDate.code
/// -67594: A conversion error has occurred.
public let errSecConversionError: OSStatus = KeychainStatus.conversionError.code
/// -67595: A SSLv2 rollback error has occurred.
public let errSecAppleSSLv2Rollback: OSStatus = KeychainStatus.appleSSLv2Rollback.code
/// -67596: The quota was exceeded.
public let errSecQuotaExceeded: OSStatus = KeychainStatus.quotaExceeded.code
/// -67597: The file is too big.
public let errSecFileTooBig: OSStatus = KeychainStatus.fileTooBig.code
/// -67598: The specified database has an invalid blob.
public let errSecInvalidDatabaseBlob: OSStatus = KeychainStatus.invalidDatabaseBlob.code
/// -67599: The specified database has an invalid key blob.
public let errSecInvalidKeyBlob: OSStatus = KeychainStatus.invalidKeyBlob.code
/// -67600: The specified database has an incompatible blob.
public let errSecIncompatibleDatabaseBlob: OSStatus = KeychainStatus.incompatibleDatabaseBlob.code
/// -67601: The specified database has an incompatible key blob.
public let errSecIncompatibleKeyBlob: OSStatus = KeychainStatus.incompatibleKeyBlob.code
/// -67602: A host name mismatch has occurred.
public let errSecHostNameMismatch: OSStatus = KeychainStatus.hostNameMismatch.code
/// -67603: There is an unknown critical extension flag.
public let errSecUnknownCriticalExtensionFlag: OSStatus = KeychainStatus.unknownCriticalExtensionFlag.code
/// -67604: No basic constraints were found.
public let errSecNoBasicConstraints: OSStatus = KeychainStatus.noBasicConstraints.code
/// -67605: No basic CA constraints were found.
public let errSecNoBasicConstraintsCA: OSStatus = KeychainStatus.noBasicConstraintsCA.code
/// -67606: The authority key ID is not valid.
public let errSecInvalidAuthorityKeyID: OSStatus = KeychainStatus.invalidAuthorityKeyID.code
/// -67607: The subject key ID is not valid.
public let errSecInvalidSubjectKeyID: OSStatus = KeychainStatus.invalidSubjectKeyID.code
/// -67608: The key usage is not valid for the specified policy.
public let errSecInvalidKeyUsageForPolicy: OSStatus = KeychainStatus.invalidKeyUsageForPolicy.code
/// -67609: The extended key usage is not valid.
public let errSecInvalidExtendedKeyUsage: OSStatus = KeychainStatus.invalidExtendedKeyUsage.code
/// -67610: The ID linkage is not valid.
public let errSecInvalidIDLinkage: OSStatus = KeychainStatus.invalidIDLinkage.code
/// -67611: The path length constraint was exceeded.
public let errSecPathLengthConstraintExceeded: OSStatus = KeychainStatus.pathLengthConstraintExceeded.code
/// -67612: The root or anchor certificate is not valid.
public let errSecInvalidRoot: OSStatus = KeychainStatus.invalidRoot.code
/// -67613: The CRL has expired.
public let errSecCRLExpired: OSStatus = KeychainStatus.crlExpired.code
/// -67614: The CRL is not yet valid.
public let errSecCRLNotValidYet: OSStatus = KeychainStatus.crlNotValidYet.code
/// -67615: The CRL was not found.
public let errSecCRLNotFound: OSStatus = KeychainStatus.crlNotFound.code
/// -67616: The CRL server is down.
public let errSecCRLServerDown: OSStatus = KeychainStatus.crlServerDown.code
/// -67617: The CRL has a bad Uniform Resource Identifier.
public let errSecCRLBadURI: OSStatus = KeychainStatus.crlBadURI.code
/// -67618: An unknown certificate extension was encountered.
public let errSecUnknownCertExtension: OSStatus = KeychainStatus.unknownCertExtension.code
/// -67619: An unknown CRL extension was encountered.
public let errSecUnknownCRLExtension: OSStatus = KeychainStatus.unknownCRLExtension.code
/// -67620: The CRL is not trusted.
public let errSecCRLNotTrusted: OSStatus = KeychainStatus.crlNotTrusted.code
/// -67621: The CRL policy failed.
public let errSecCRLPolicyFailed: OSStatus = KeychainStatus.crlPolicyFailed.code
/// -67622: The issuing distribution point was not valid.
public let errSecIDPFailure: OSStatus = KeychainStatus.idpFailure.code
/// -67623: An email address mismatch was encountered.
public let errSecSMIMEEmailAddressesNotFound: OSStatus = KeychainStatus.smimeEmailAddressesNotFound.code
/// -67624: The appropriate extended key usage for SMIME was not found.
public let errSecSMIMEBadExtendedKeyUsage: OSStatus = KeychainStatus.smimeBadExtendedKeyUsage.code
/// -67625: The key usage is not compatible with SMIME.
public let errSecSMIMEBadKeyUsage: OSStatus = KeychainStatus.smimeBadKeyUsage.code
/// -67626: The key usage extension is not marked as critical.
public let errSecSMIMEKeyUsageNotCritical: OSStatus = KeychainStatus.smimeKeyUsageNotCritical.code
/// -67627: No email address was found in the certificate.
public let errSecSMIMENoEmailAddress: OSStatus = KeychainStatus.smimeNoEmailAddress.code
/// -67628: The subject alternative name extension is not marked as critical.
public let errSecSMIMESubjAltNameNotCritical: OSStatus = KeychainStatus.smimeSubjAltNameNotCritical.code
/// -67629: The appropriate extended key usage for SSL was not found.
public let errSecSSLBadExtendedKeyUsage: OSStatus = KeychainStatus.sslBadExtendedKeyUsage.code
/// -67630: The OCSP response was incorrect or could not be parsed.
public let errSecOCSPBadResponse: OSStatus = KeychainStatus.ocspBadResponse.code
/// -67631: The OCSP request was incorrect or could not be parsed.
public let errSecOCSPBadRequest: OSStatus = KeychainStatus.ocspBadRequest.code
/// -67632: OCSP service is unavailable.
public let errSecOCSPUnavailable: OSStatus = KeychainStatus.ocspUnavailable.code
/// -67633: The OCSP server did not recognize this certificate.
public let errSecOCSPStatusUnrecognized: OSStatus = KeychainStatus.ocspStatusUnrecognized.code
/// -67634: An end-of-data was detected.
public let errSecEndOfData: OSStatus = KeychainStatus.endOfData.code
/// -67635: An incomplete certificate revocation check occurred.
public let errSecIncompleteCertRevocationCheck: OSStatus = KeychainStatus.incompleteCertRevocationCheck.code
/// -67636: A network failure occurred.
public let errSecNetworkFailure: OSStatus = KeychainStatus.networkFailure.code
/// -67637: The OCSP response was not trusted to a root or anchor certificate.
public let errSecOCSPNotTrustedToAnchor: OSStatus = KeychainStatus.ocspNotTrustedToAnchor.code
/// -67638: The record was modified.
public let errSecRecordModified: OSStatus = KeychainStatus.recordModified.code
/// -67639: The OCSP response had an invalid signature.
public let errSecOCSPSignatureError: OSStatus = KeychainStatus.ocspSignatureError.code
/// -67640: The OCSP response had no signer.
public let errSecOCSPNoSigner: OSStatus = KeychainStatus.ocspNoSigner.code
/// -67641: The OCSP responder was given a malformed request.
public let errSecOCSPResponderMalformedReq: OSStatus = KeychainStatus.ocspResponderMalformedReq.code
/// -67642: The OCSP responder encountered an internal error.
public let errSecOCSPResponderInternalError: OSStatus = KeychainStatus.ocspResponderInternalError.code
/// -67643: The OCSP responder is busy, try again later.
public let errSecOCSPResponderTryLater: OSStatus = KeychainStatus.ocspResponderTryLater.code
/// -67644: The OCSP responder requires a signature.
public let errSecOCSPResponderSignatureRequired: OSStatus = KeychainStatus.ocspResponderSignatureRequired.code
/// -67645: The OCSP responder rejected this request as unauthorized.
public let errSecOCSPResponderUnauthorized: OSStatus = KeychainStatus.ocspResponderUnauthorized.code
/// -67646: The OCSP response nonce did not match the request.
public let errSecOCSPResponseNonceMismatch: OSStatus = KeychainStatus.ocspResponseNonceMismatch.code
/// -67647: Code signing encountered an incorrect certificate chain length.
public let errSecCodeSigningBadCertChainLength: OSStatus = KeychainStatus.codeSigningBadCertChainLength.code
/// -67648: Code signing found no basic constraints.
public let errSecCodeSigningNoBasicConstraints: OSStatus = KeychainStatus.codeSigningNoBasicConstraints.code
/// -67649: Code signing encountered an incorrect path length constraint.
public let errSecCodeSigningBadPathLengthConstraint: OSStatus = KeychainStatus.codeSigningBadPathLengthConstraint.code
/// -67650: Code signing found no extended key usage.
public let errSecCodeSigningNoExtendedKeyUsage: OSStatus = KeychainStatus.codeSigningNoExtendedKeyUsage.code
/// -67651: Code signing indicated use of a development-only certificate.
public let errSecCodeSigningDevelopment: OSStatus = KeychainStatus.codeSigningDevelopment.code
/// -67652: Resource signing has encountered an incorrect certificate chain length.
public let errSecResourceSignBadCertChainLength: OSStatus = KeychainStatus.resourceSignBadCertChainLength.code
/// -67653: Resource signing has encountered an error in the extended key usage.
public let errSecResourceSignBadExtKeyUsage: OSStatus = KeychainStatus.resourceSignBadExtKeyUsage.code
/// -67654: The trust setting for this policy was set to Deny.
public let errSecTrustSettingDeny: OSStatus = KeychainStatus.trustSettingDeny.code
/// -67655: An invalid certificate subject name was encountered.
public let errSecInvalidSubjectName: OSStatus = KeychainStatus.invalidSubjectName.code
/// -67656: An unknown qualified certificate statement was encountered.
public let errSecUnknownQualifiedCertStatement: OSStatus = KeychainStatus.unknownQualifiedCertStatement.code
/// -67657: The MobileMe request will be sent during the next connection.
public let errSecMobileMeRequestQueued: OSStatus = KeychainStatus.mobileMeRequestQueued.code
/// -67658: The MobileMe request was redirected.
public let errSecMobileMeRequestRedirected: OSStatus = KeychainStatus.mobileMeRequestRedirected.code
/// -67659: A MobileMe server error occurred.
public let errSecMobileMeServerError: OSStatus = KeychainStatus.mobileMeServerError.code
/// -67660: The MobileMe server is not available.
public let errSecMobileMeServerNotAvailable: OSStatus = KeychainStatus.mobileMeServerNotAvailable.code
/// -67661: The MobileMe server already exists.
public let errSecMobileMeServerAlreadyExists: OSStatus = KeychainStatus.mobileMeServerAlreadyExists.code
/// -67662: A MobileMe server service error occurred.
public let errSecMobileMeServerServiceErr: OSStatus = KeychainStatus.mobileMeServerServiceErr.code
/// -67663: A MobileMe request is already pending.
public let errSecMobileMeRequestAlreadyPending: OSStatus = KeychainStatus.mobileMeRequestAlreadyPending.code
/// -67664: No MobileMe request is pending.
public let errSecMobileMeNoRequestPending: OSStatus = KeychainStatus.mobileMeNoRequestPending.code
/// -67665: A MobileMe certificate signing request verification failure occurred.
public let errSecMobileMeCSRVerifyFailure: OSStatus = KeychainStatus.mobileMeCSRVerifyFailure.code
/// -67666: A MobileMe consistency check failed.
public let errSecMobileMeFailedConsistencyCheck: OSStatus = KeychainStatus.mobileMeFailedConsistencyCheck.code
/// -67667: A function was called without initializing CSSM.
public let errSecNotInitialized: OSStatus = KeychainStatus.notInitialized.code
/// -67668: The CSSM handle does not match with the service type.
public let errSecInvalidHandleUsage: OSStatus = KeychainStatus.invalidHandleUsage.code
/// -67669: A reference to the calling module was not found in the list of authorized callers.
public let errSecPVCReferentNotFound: OSStatus = KeychainStatus.pvcReferentNotFound.code
/// -67670: A function address was not within the verified module.
public let errSecFunctionIntegrityFail: OSStatus = KeychainStatus.functionIntegrityFail.code
/// -67671: An internal error has occurred.
public let errSecInternalError: OSStatus = KeychainStatus.internalError.code
/// -67672: A memory error has occurred.
public let errSecMemoryError: OSStatus = KeychainStatus.memoryError.code
/// -67673: Invalid data was encountered.
public let errSecInvalidData: OSStatus = KeychainStatus.invalidData.code
/// -67674: A Module Directory Service error has occurred.
public let errSecMDSError: OSStatus = KeychainStatus.mdsError.code
/// -67675: An invalid pointer was encountered.
public let errSecInvalidPointer: OSStatus = KeychainStatus.invalidPointer.code
/// -67676: Self-check has failed.
public let errSecSelfCheckFailed: OSStatus = KeychainStatus.selfCheckFailed.code
/// -67677: A function has failed.
public let errSecFunctionFailed: OSStatus = KeychainStatus.functionFailed.code
/// -67678: A module manifest verification failure has occurred.
public let errSecModuleManifestVerifyFailed: OSStatus = KeychainStatus.moduleManifestVerifyFailed.code
/// -67679: An invalid GUID was encountered.
public let errSecInvalidGUID: OSStatus = KeychainStatus.invalidGUID.code
/// -67680: An invalid handle was encountered.
public let errSecInvalidHandle: OSStatus = KeychainStatus.invalidHandle.code
/// -67681: An invalid DB list was encountered.
public let errSecInvalidDBList: OSStatus = KeychainStatus.invalidDBList.code
/// -67682: An invalid passthrough ID was encountered.
public let errSecInvalidPassthroughID: OSStatus = KeychainStatus.invalidPassthroughID.code
/// -67683: An invalid network address was encountered.
public let errSecInvalidNetworkAddress: OSStatus = KeychainStatus.invalidNetworkAddress.code
/// -67684: The certificate revocation list is already signed.
public let errSecCRLAlreadySigned: OSStatus = KeychainStatus.crlAlreadySigned.code
/// -67685: An invalid number of fields were encountered.
public let errSecInvalidNumberOfFields: OSStatus = KeychainStatus.invalidNumberOfFields.code
/// -67686: A verification failure occurred.
public let errSecVerificationFailure: OSStatus = KeychainStatus.verificationFailure.code
/// -67687: An unknown tag was encountered.
public let errSecUnknownTag: OSStatus = KeychainStatus.unknownTag.code
/// -67688: An invalid signature was encountered.
public let errSecInvalidSignature: OSStatus = KeychainStatus.invalidSignature.code
/// -67689: An invalid name was encountered.
public let errSecInvalidName: OSStatus = KeychainStatus.invalidName.code
/// -67690: An invalid certificate reference was encountered.
public let errSecInvalidCertificateRef: OSStatus = KeychainStatus.invalidCertificateRef.code
/// -67691: An invalid certificate group was encountered.
public let errSecInvalidCertificateGroup: OSStatus = KeychainStatus.invalidCertificateGroup.code
/// -67692: The specified tag was not found.
public let errSecTagNotFound: OSStatus = KeychainStatus.tagNotFound.code
/// -67693: The specified query was not valid.
public let errSecInvalidQuery: OSStatus = KeychainStatus.invalidQuery.code
/// -67694: An invalid value was detected.
public let errSecInvalidValue: OSStatus = KeychainStatus.invalidValue.code
/// -67695: A callback has failed.
public let errSecCallbackFailed: OSStatus = KeychainStatus.callbackFailed.code
/// -67696: An ACL delete operation has failed.
public let errSecACLDeleteFailed: OSStatus = KeychainStatus.aclDeleteFailed.code
/// -67697: An ACL replace operation has failed.
public let errSecACLReplaceFailed: OSStatus = KeychainStatus.aclReplaceFailed.code
/// -67698: An ACL add operation has failed.
public let errSecACLAddFailed: OSStatus = KeychainStatus.aclAddFailed.code
/// -67699: An ACL change operation has failed.
public let errSecACLChangeFailed: OSStatus = KeychainStatus.aclChangeFailed.code
/// -67700: Invalid access credentials were encountered.
public let errSecInvalidAccessCredentials: OSStatus = KeychainStatus.invalidAccessCredentials.code
/// -67701: An invalid record was encountered.
public let errSecInvalidRecord: OSStatus = KeychainStatus.invalidRecord.code
/// -67702: An invalid ACL was encountered.
public let errSecInvalidACL: OSStatus = KeychainStatus.invalidACL.code
/// -67703: An invalid sample value was encountered.
public let errSecInvalidSampleValue: OSStatus = KeychainStatus.invalidSampleValue.code
/// -67704: An incompatible version was encountered.
public let errSecIncompatibleVersion: OSStatus = KeychainStatus.incompatibleVersion.code
/// -67705: The privilege was not granted.
public let errSecPrivilegeNotGranted: OSStatus = KeychainStatus.privilegeNotGranted.code
/// -67706: An invalid scope was encountered.
public let errSecInvalidScope: OSStatus = KeychainStatus.invalidScope.code
/// -67707: The PVC is already configured.
public let errSecPVCAlreadyConfigured: OSStatus = KeychainStatus.pvcAlreadyConfigured.code
/// -67708: An invalid PVC was encountered.
public let errSecInvalidPVC: OSStatus = KeychainStatus.invalidPVC.code
/// -67709: The EMM load has failed.
public let errSecEMMLoadFailed: OSStatus = KeychainStatus.emmLoadFailed.code
/// -67710: The EMM unload has failed.
public let errSecEMMUnloadFailed: OSStatus = KeychainStatus.emmUnloadFailed.code
/// -67711: The add-in load operation has failed.
public let errSecAddinLoadFailed: OSStatus = KeychainStatus.addinLoadFailed.code
/// -67712: An invalid key was encountered.
public let errSecInvalidKeyRef: OSStatus = KeychainStatus.invalidKeyRef.code
/// -67713: An invalid key hierarchy was encountered.
public let errSecInvalidKeyHierarchy: OSStatus = KeychainStatus.invalidKeyHierarchy.code
/// -67714: The add-in unload operation has failed.
public let errSecAddinUnloadFailed: OSStatus = KeychainStatus.addinUnloadFailed.code
/// -67715: A library reference was not found.
public let errSecLibraryReferenceNotFound: OSStatus = KeychainStatus.libraryReferenceNotFound.code
/// -67716: An invalid add-in function table was encountered.
public let errSecInvalidAddinFunctionTable: OSStatus = KeychainStatus.invalidAddinFunctionTable.code
/// -67717: An invalid service mask was encountered.
public let errSecInvalidServiceMask: OSStatus = KeychainStatus.invalidServiceMask.code
/// -67718: A module was not loaded.
public let errSecModuleNotLoaded: OSStatus = KeychainStatus.moduleNotLoaded.code
/// -67719: An invalid subservice ID was encountered.
public let errSecInvalidSubServiceID: OSStatus = KeychainStatus.invalidSubServiceID.code
/// -67720: An attribute was not in the context.
public let errSecAttributeNotInContext: OSStatus = KeychainStatus.attributeNotInContext.code
/// -67721: A module failed to initialize.
public let errSecModuleManagerInitializeFailed: OSStatus = KeychainStatus.moduleManagerInitializeFailed.code
/// -67722: A module was not found.
public let errSecModuleManagerNotFound: OSStatus = KeychainStatus.moduleManagerNotFound.code
/// -67723: An event notification callback was not found.
public let errSecEventNotificationCallbackNotFound: OSStatus = KeychainStatus.eventNotificationCallbackNotFound.code
/// -67724: An input length error was encountered.
public let errSecInputLengthError: OSStatus = KeychainStatus.inputLengthError.code
/// -67725: An output length error was encountered.
public let errSecOutputLengthError: OSStatus = KeychainStatus.outputLengthError.code
/// -67726: The privilege is not supported.
public let errSecPrivilegeNotSupported: OSStatus = KeychainStatus.privilegeNotSupported.code
/// -67727: A device error was encountered.
public let errSecDeviceError: OSStatus = KeychainStatus.deviceError.code
/// -67728: The CSP handle was busy.
public let errSecAttachHandleBusy: OSStatus = KeychainStatus.attachHandleBusy.code
/// -67729: You are not logged in.
public let errSecNotLoggedIn: OSStatus = KeychainStatus.notLoggedIn.code
/// -67730: An algorithm mismatch was encountered.
public let errSecAlgorithmMismatch: OSStatus = KeychainStatus.algorithmMismatch.code
/// -67731: The key usage is incorrect.
public let errSecKeyUsageIncorrect: OSStatus = KeychainStatus.keyUsageIncorrect.code
/// -67732: The key blob type is incorrect.
public let errSecKeyBlobTypeIncorrect: OSStatus = KeychainStatus.keyBlobTypeIncorrect.code
/// -67733: The key header is inconsistent.
public let errSecKeyHeaderInconsistent: OSStatus = KeychainStatus.keyHeaderInconsistent.code
/// -67734: The key header format is not supported.
public let errSecUnsupportedKeyFormat: OSStatus = KeychainStatus.unsupportedKeyFormat.code
/// -67735: The key size is not supported.
public let errSecUnsupportedKeySize: OSStatus = KeychainStatus.unsupportedKeySize.code
/// -67736: The key usage mask is not valid.
public let errSecInvalidKeyUsageMask: OSStatus = KeychainStatus.invalidKeyUsageMask.code
/// -67737: The key usage mask is not supported.
public let errSecUnsupportedKeyUsageMask: OSStatus = KeychainStatus.unsupportedKeyUsageMask.code
/// -67738: The key attribute mask is not valid.
public let errSecInvalidKeyAttributeMask: OSStatus = KeychainStatus.invalidKeyAttributeMask.code
/// -67739: The key attribute mask is not supported.
public let errSecUnsupportedKeyAttributeMask: OSStatus = KeychainStatus.unsupportedKeyAttributeMask.code
/// -67740: The key label is not valid.
public let errSecInvalidKeyLabel: OSStatus = KeychainStatus.invalidKeyLabel.code
/// -67741: The key label is not supported.
public let errSecUnsupportedKeyLabel: OSStatus = KeychainStatus.unsupportedKeyLabel.code
/// -67742: The key format is not valid.
public let errSecInvalidKeyFormat: OSStatus = KeychainStatus.invalidKeyFormat.code
/// -67743: The vector of buffers is not supported.
public let errSecUnsupportedVectorOfBuffers: OSStatus = KeychainStatus.unsupportedVectorOfBuffers.code
/// -67744: The input vector is not valid.
public let errSecInvalidInputVector: OSStatus = KeychainStatus.invalidInputVector.code
/// -67745: The output vector is not valid.
public let errSecInvalidOutputVector: OSStatus = KeychainStatus.invalidOutputVector.code
/// -67746: An invalid context was encountered.
public let errSecInvalidContext: OSStatus = KeychainStatus.invalidContext.code
/// -67747: An invalid algorithm was encountered.
public let errSecInvalidAlgorithm: OSStatus = KeychainStatus.invalidAlgorithm.code
/// -67748: A key attribute was not valid.
public let errSecInvalidAttributeKey: OSStatus = KeychainStatus.invalidAttributeKey.code
/// -67749: A key attribute was missing.
public let errSecMissingAttributeKey: OSStatus = KeychainStatus.missingAttributeKey.code
/// -67750: An init vector attribute was not valid.
public let errSecInvalidAttributeInitVector: OSStatus = KeychainStatus.invalidAttributeInitVector.code
/// -67751: An init vector attribute was missing.
public let errSecMissingAttributeInitVector: OSStatus = KeychainStatus.missingAttributeInitVector.code
/// -67752: A salt attribute was not valid.
public let errSecInvalidAttributeSalt: OSStatus = KeychainStatus.invalidAttributeSalt.code
/// -67753: A salt attribute was missing.
public let errSecMissingAttributeSalt: OSStatus = KeychainStatus.missingAttributeSalt.code
/// -67754: A padding attribute was not valid.
public let errSecInvalidAttributePadding: OSStatus = KeychainStatus.invalidAttributePadding.code
/// -67755: A padding attribute was missing.
public let errSecMissingAttributePadding: OSStatus = KeychainStatus.missingAttributePadding.code
/// -67756: A random number attribute was not valid.
public let errSecInvalidAttributeRandom: OSStatus = KeychainStatus.invalidAttributeRandom.code
/// -67757: A random number attribute was missing.
public let errSecMissingAttributeRandom: OSStatus = KeychainStatus.missingAttributeRandom.code
/// -67758: A seed attribute was not valid.
public let errSecInvalidAttributeSeed: OSStatus = KeychainStatus.invalidAttributeSeed.code
/// -67759: A seed attribute was missing.
public let errSecMissingAttributeSeed: OSStatus = KeychainStatus.missingAttributeSeed.code
/// -67760: A passphrase attribute was not valid.
public let errSecInvalidAttributePassphrase: OSStatus = KeychainStatus.invalidAttributePassphrase.code
/// -67761: A passphrase attribute was missing.
public let errSecMissingAttributePassphrase: OSStatus = KeychainStatus.missingAttributePassphrase.code
/// -67762: A key length attribute was not valid.
public let errSecInvalidAttributeKeyLength: OSStatus = KeychainStatus.invalidAttributeKeyLength.code
/// -67763: A key length attribute was missing.
public let errSecMissingAttributeKeyLength: OSStatus = KeychainStatus.missingAttributeKeyLength.code
/// -67764: A block size attribute was not valid.
public let errSecInvalidAttributeBlockSize: OSStatus = KeychainStatus.invalidAttributeBlockSize.code
/// -67765: A block size attribute was missing.
public let errSecMissingAttributeBlockSize: OSStatus = KeychainStatus.missingAttributeBlockSize.code
/// -67766: An output size attribute was not valid.
public let errSecInvalidAttributeOutputSize: OSStatus = KeychainStatus.invalidAttributeOutputSize.code
/// -67767: An output size attribute was missing.
public let errSecMissingAttributeOutputSize: OSStatus = KeychainStatus.missingAttributeOutputSize.code
/// -67768: The number of rounds attribute was not valid.
public let errSecInvalidAttributeRounds: OSStatus = KeychainStatus.invalidAttributeRounds.code
/// -67769: The number of rounds attribute was missing.
public let errSecMissingAttributeRounds: OSStatus = KeychainStatus.missingAttributeRounds.code
/// -67770: An algorithm parameters attribute was not valid.
public let errSecInvalidAlgorithmParms: OSStatus = KeychainStatus.invalidAlgorithmParms.code
/// -67771: An algorithm parameters attribute was missing.
public let errSecMissingAlgorithmParms: OSStatus = KeychainStatus.missingAlgorithmParms.code
/// -67772: A label attribute was not valid.
public let errSecInvalidAttributeLabel: OSStatus = KeychainStatus.invalidAttributeLabel.code
/// -67773: A label attribute was missing.
public let errSecMissingAttributeLabel: OSStatus = KeychainStatus.missingAttributeLabel.code
/// -67774: A key type attribute was not valid.
public let errSecInvalidAttributeKeyType: OSStatus = KeychainStatus.invalidAttributeKeyType.code
/// -67775: A key type attribute was missing.
public let errSecMissingAttributeKeyType: OSStatus = KeychainStatus.missingAttributeKeyType.code
/// -67776: A mode attribute was not valid.
public let errSecInvalidAttributeMode: OSStatus = KeychainStatus.invalidAttributeMode.code
/// -67777: A mode attribute was missing.
public let errSecMissingAttributeMode: OSStatus = KeychainStatus.missingAttributeMode.code
/// -67778: An effective bits attribute was not valid.
public let errSecInvalidAttributeEffectiveBits: OSStatus = KeychainStatus.invalidAttributeEffectiveBits.code
/// -67779: An effective bits attribute was missing.
public let errSecMissingAttributeEffectiveBits: OSStatus = KeychainStatus.missingAttributeEffectiveBits.code
/// -67780: A start date attribute was not valid.
public let errSecInvalidAttributeStartDate: OSStatus = KeychainStatus.invalidAttributeStartDate.code
/// -67781: A start date attribute was missing.
public let errSecMissingAttributeStartDate: OSStatus = KeychainStatus.missingAttributeStartDate.code
/// -67782: An end date attribute was not valid.
public let errSecInvalidAttributeEndDate: OSStatus = KeychainStatus.invalidAttributeEndDate.code
/// -67783: An end date attribute was missing.
public let errSecMissingAttributeEndDate: OSStatus = KeychainStatus.missingAttributeEndDate.code
/// -67784: A version attribute was not valid.
public let errSecInvalidAttributeVersion: OSStatus = KeychainStatus.invalidAttributeVersion.code
/// -67785: A version attribute was missing.
public let errSecMissingAttributeVersion: OSStatus = KeychainStatus.missingAttributeVersion.code
/// -67786: A prime attribute was not valid.
public let errSecInvalidAttributePrime: OSStatus = KeychainStatus.invalidAttributePrime.code
/// -67787: A prime attribute was missing.
public let errSecMissingAttributePrime: OSStatus = KeychainStatus.missingAttributePrime.code
/// -67788: A base attribute was not valid.
public let errSecInvalidAttributeBase: OSStatus = KeychainStatus.invalidAttributeBase.code
/// -67789: A base attribute was missing.
public let errSecMissingAttributeBase: OSStatus = KeychainStatus.missingAttributeBase.code
/// -67790: A subprime attribute was not valid.
public let errSecInvalidAttributeSubprime: OSStatus = KeychainStatus.invalidAttributeSubprime.code
/// -67791: A subprime attribute was missing.
public let errSecMissingAttributeSubprime: OSStatus = KeychainStatus.missingAttributeSubprime.code
/// -67792: An iteration count attribute was not valid.
public let errSecInvalidAttributeIterationCount: OSStatus = KeychainStatus.invalidAttributeIterationCount.code
/// -67793: An iteration count attribute was missing.
public let errSecMissingAttributeIterationCount: OSStatus = KeychainStatus.missingAttributeIterationCount.code
/// -67794: A database handle attribute was not valid.
public let errSecInvalidAttributeDLDBHandle: OSStatus = KeychainStatus.invalidAttributeDLDBHandle.code
/// -67795: A database handle attribute was missing.
public let errSecMissingAttributeDLDBHandle: OSStatus = KeychainStatus.missingAttributeDLDBHandle.code
/// -67796: An access credentials attribute was not valid.
public let errSecInvalidAttributeAccessCredentials: OSStatus = KeychainStatus.invalidAttributeAccessCredentials.code
/// -67797: An access credentials attribute was missing.
public let errSecMissingAttributeAccessCredentials: OSStatus = KeychainStatus.missingAttributeAccessCredentials.code
/// -67798: A public key format attribute was not valid.
public let errSecInvalidAttributePublicKeyFormat: OSStatus = KeychainStatus.invalidAttributePublicKeyFormat.code
/// -67799: A public key format attribute was missing.
public let errSecMissingAttributePublicKeyFormat: OSStatus = KeychainStatus.missingAttributePublicKeyFormat.code
/// -67800: A private key format attribute was not valid.
public let errSecInvalidAttributePrivateKeyFormat: OSStatus = KeychainStatus.invalidAttributePrivateKeyFormat.code
/// -67801: A private key format attribute was missing.
public let errSecMissingAttributePrivateKeyFormat: OSStatus = KeychainStatus.missingAttributePrivateKeyFormat.code
/// -67802: A symmetric key format attribute was not valid.
public let errSecInvalidAttributeSymmetricKeyFormat: OSStatus = KeychainStatus.invalidAttributeSymmetricKeyFormat.code
/// -67803: A symmetric key format attribute was missing.
public let errSecMissingAttributeSymmetricKeyFormat: OSStatus = KeychainStatus.missingAttributeSymmetricKeyFormat.code
/// -67804: A wrapped key format attribute was not valid.
public let errSecInvalidAttributeWrappedKeyFormat: OSStatus = KeychainStatus.invalidAttributeWrappedKeyFormat.code
/// -67805: A wrapped key format attribute was missing.
public let errSecMissingAttributeWrappedKeyFormat: OSStatus = KeychainStatus.missingAttributeWrappedKeyFormat.code
/// -67806: A staged operation is in progress.
public let errSecStagedOperationInProgress: OSStatus = KeychainStatus.stagedOperationInProgress.code
/// -67807: A staged operation was not started.
public let errSecStagedOperationNotStarted: OSStatus = KeychainStatus.stagedOperationNotStarted.code
/// -67808: A cryptographic verification failure has occurred.
public let errSecVerifyFailed: OSStatus = KeychainStatus.verifyFailed.code
/// -67809: The query size is unknown.
public let errSecQuerySizeUnknown: OSStatus = KeychainStatus.querySizeUnknown.code
/// -67810: A block size mismatch occurred.
public let errSecBlockSizeMismatch: OSStatus = KeychainStatus.blockSizeMismatch.code
/// -67811: The public key was inconsistent.
public let errSecPublicKeyInconsistent: OSStatus = KeychainStatus.publicKeyInconsistent.code
/// -67812: A device verification failure has occurred.
public let errSecDeviceVerifyFailed: OSStatus = KeychainStatus.deviceVerifyFailed.code
/// -67813: An invalid login name was detected.
public let errSecInvalidLoginName: OSStatus = KeychainStatus.invalidLoginName.code
/// -67814: The user is already logged in.
public let errSecAlreadyLoggedIn: OSStatus = KeychainStatus.alreadyLoggedIn.code
/// -67815: An invalid digest algorithm was detected.
public let errSecInvalidDigestAlgorithm: OSStatus = KeychainStatus.invalidDigestAlgorithm.code
/// -67816: An invalid CRL group was detected.
public let errSecInvalidCRLGroup: OSStatus = KeychainStatus.invalidCRLGroup.code
/// -67817: The certificate cannot operate.
public let errSecCertificateCannotOperate: OSStatus = KeychainStatus.certificateCannotOperate.code
/// -67818: An expired certificate was detected.
public let errSecCertificateExpired: OSStatus = KeychainStatus.certificateExpired.code
/// -67819: The certificate is not yet valid.
public let errSecCertificateNotValidYet: OSStatus = KeychainStatus.certificateNotValidYet.code
/// -67820: The certificate was revoked.
public let errSecCertificateRevoked: OSStatus = KeychainStatus.certificateRevoked.code
/// -67821: The certificate was suspended.
public let errSecCertificateSuspended: OSStatus = KeychainStatus.certificateSuspended.code
/// -67822: Insufficient credentials were detected.
public let errSecInsufficientCredentials: OSStatus = KeychainStatus.insufficientCredentials.code
/// -67823: The action was not valid.
public let errSecInvalidAction: OSStatus = KeychainStatus.invalidAction.code
/// -67824: The authority was not valid.
public let errSecInvalidAuthority: OSStatus = KeychainStatus.invalidAuthority.code
/// -67825: A verify action has failed.
public let errSecVerifyActionFailed: OSStatus = KeychainStatus.verifyActionFailed.code
/// -67826: The certificate authority was not valid.
public let errSecInvalidCertAuthority: OSStatus = KeychainStatus.invalidCertAuthority.code
/// -67827: The CRL authority was not valid.
public let errSecInvalidCRLAuthority: OSStatus = KeychainStatus.invalidCRLAuthority.code
/// -67828: The CRL encoding was not valid.
public let errSecInvalidCRLEncoding: OSStatus = KeychainStatus.invalidCRLEncoding.code
/// -67829: The CRL type was not valid.
public let errSecInvalidCRLType: OSStatus = KeychainStatus.invalidCRLType.code
/// -67830: The CRL was not valid.
public let errSecInvalidCRL: OSStatus = KeychainStatus.invalidCRL.code
/// -67831: The form type was not valid.
public let errSecInvalidFormType: OSStatus = KeychainStatus.invalidFormType.code
/// -67832: The ID was not valid.
public let errSecInvalidID: OSStatus = KeychainStatus.invalidID.code
/// -67833: The identifier was not valid.
public let errSecInvalidIdentifier: OSStatus = KeychainStatus.invalidIdentifier.code
/// -67834: The index was not valid.
public let errSecInvalidIndex: OSStatus = KeychainStatus.invalidIndex.code
/// -67835: The policy identifiers are not valid.
public let errSecInvalidPolicyIdentifiers: OSStatus = KeychainStatus.invalidPolicyIdentifiers.code
/// -67836: The time specified was not valid.
public let errSecInvalidTimeString: OSStatus = KeychainStatus.invalidTimeString.code
/// -67837: The trust policy reason was not valid.
public let errSecInvalidReason: OSStatus = KeychainStatus.invalidReason.code
/// -67838: The request inputs are not valid.
public let errSecInvalidRequestInputs: OSStatus = KeychainStatus.invalidRequestInputs.code
/// -67839: The response vector was not valid.
public let errSecInvalidResponseVector: OSStatus = KeychainStatus.invalidResponseVector.code
/// -67840: The stop-on policy was not valid.
public let errSecInvalidStopOnPolicy: OSStatus = KeychainStatus.invalidStopOnPolicy.code
/// -67841: The tuple was not valid.
public let errSecInvalidTuple: OSStatus = KeychainStatus.invalidTuple.code
/// -67842: Multiple values are not supported.
public let errSecMultipleValuesUnsupported: OSStatus = KeychainStatus.multipleValuesUnsupported.code
/// -67843: The certificate was not trusted.
public let errSecNotTrusted: OSStatus = KeychainStatus.notTrusted.code
/// -67844: No default authority was detected.
public let errSecNoDefaultAuthority: OSStatus = KeychainStatus.noDefaultAuthority.code
/// -67845: The trust policy had a rejected form.
public let errSecRejectedForm: OSStatus = KeychainStatus.rejectedForm.code
/// -67846: The request was lost.
public let errSecRequestLost: OSStatus = KeychainStatus.requestLost.code
/// -67847: The request was rejected.
public let errSecRequestRejected: OSStatus = KeychainStatus.requestRejected.code
/// -67848: The address type is not supported.
public let errSecUnsupportedAddressType: OSStatus = KeychainStatus.unsupportedAddressType.code
/// -67849: The service is not supported.
public let errSecUnsupportedService: OSStatus = KeychainStatus.unsupportedService.code
/// -67850: The tuple group was not valid.
public let errSecInvalidTupleGroup: OSStatus = KeychainStatus.invalidTupleGroup.code
/// -67851: The base ACLs are not valid.
public let errSecInvalidBaseACLs: OSStatus = KeychainStatus.invalidBaseACLs.code
/// -67852: The tuple credentials are not valid.
public let errSecInvalidTupleCredentials: OSStatus = KeychainStatus.invalidTupleCredentials.code
/// -67853: The encoding was not valid.
public let errSecInvalidEncoding: OSStatus = KeychainStatus.invalidEncoding.code
/// -67854: The validity period was not valid.
public let errSecInvalidValidityPeriod: OSStatus = KeychainStatus.invalidValidityPeriod.code
/// -67855: The requestor was not valid.
public let errSecInvalidRequestor: OSStatus = KeychainStatus.invalidRequestor.code
/// -67856: The request descriptor was not valid.
public let errSecRequestDescriptor: OSStatus = KeychainStatus.requestDescriptor.code
/// -67857: The bundle information was not valid.
public let errSecInvalidBundleInfo: OSStatus = KeychainStatus.invalidBundleInfo.code
/// -67858: The CRL index was not valid.
public let errSecInvalidCRLIndex: OSStatus = KeychainStatus.invalidCRLIndex.code
/// -67859: No field values were detected.
public let errSecNoFieldValues: OSStatus = KeychainStatus.noFieldValues.code
/// -67860: The field format is not supported.
public let errSecUnsupportedFieldFormat: OSStatus = KeychainStatus.unsupportedFieldFormat.code
/// -67861: The index information is not supported.
public let errSecUnsupportedIndexInfo: OSStatus = KeychainStatus.unsupportedIndexInfo.code
/// -67862: The locality is not supported.
public let errSecUnsupportedLocality: OSStatus = KeychainStatus.unsupportedLocality.code
/// -67863: The number of attributes is not supported.
public let errSecUnsupportedNumAttributes: OSStatus = KeychainStatus.unsupportedNumAttributes.code
/// -67864: The number of indexes is not supported.
public let errSecUnsupportedNumIndexes: OSStatus = KeychainStatus.unsupportedNumIndexes.code
/// -67865: The number of record types is not supported.
public let errSecUnsupportedNumRecordTypes: OSStatus = KeychainStatus.unsupportedNumRecordTypes.code
/// -67866: Too many fields were specified.
public let errSecFieldSpecifiedMultiple: OSStatus = KeychainStatus.fieldSpecifiedMultiple.code
/// -67867: The field format was incompatible.
public let errSecIncompatibleFieldFormat: OSStatus = KeychainStatus.incompatibleFieldFormat.code
/// -67868: The parsing module was not valid.
public let errSecInvalidParsingModule: OSStatus = KeychainStatus.invalidParsingModule.code
/// -67869: The database is locked.
public let errSecDatabaseLocked: OSStatus = KeychainStatus.databaseLocked.code
/// -67870: The data store is open.
public let errSecDatastoreIsOpen: OSStatus = KeychainStatus.datastoreIsOpen.code
/// -67871: A missing value was detected.
public let errSecMissingValue: OSStatus = KeychainStatus.missingValue.code
/// -67872: The query limits are not supported.
public let errSecUnsupportedQueryLimits: OSStatus = KeychainStatus.unsupportedQueryLimits.code
/// -67873: The number of selection predicates is not supported.
public let errSecUnsupportedNumSelectionPreds: OSStatus = KeychainStatus.unsupportedNumSelectionPreds.code
/// -67874: The operator is not supported.
public let errSecUnsupportedOperator: OSStatus = KeychainStatus.unsupportedOperator.code
/// -67875: The database location is not valid.
public let errSecInvalidDBLocation: OSStatus = KeychainStatus.invalidDBLocation.code
/// -67876: The access request is not valid.
public let errSecInvalidAccessRequest: OSStatus = KeychainStatus.invalidAccessRequest.code
/// -67877: The index information is not valid.
public let errSecInvalidIndexInfo: OSStatus = KeychainStatus.invalidIndexInfo.code
/// -67878: The new owner is not valid.
public let errSecInvalidNewOwner: OSStatus = KeychainStatus.invalidNewOwner.code
/// -67879: The modify mode is not valid.
public let errSecInvalidModifyMode: OSStatus = KeychainStatus.invalidModifyMode.code
/// -67880: A required certificate extension is missing.
public let errSecMissingRequiredExtension: OSStatus = KeychainStatus.missingRequiredExtension.code
/// -67881: The extended key usage extension was not marked critical.
public let errSecExtendedKeyUsageNotCritical: OSStatus = KeychainStatus.extendedKeyUsageNotCritical.code
/// -67882: A timestamp was expected but was not found.
public let errSecTimestampMissing: OSStatus = KeychainStatus.timestampMissing.code
/// -67883: The timestamp was not valid.
public let errSecTimestampInvalid: OSStatus = KeychainStatus.timestampInvalid.code
/// -67884: The timestamp was not trusted.
public let errSecTimestampNotTrusted: OSStatus = KeychainStatus.timestampNotTrusted.code
/// -67885: The timestamp service is not available.
public let errSecTimestampServiceNotAvailable: OSStatus = KeychainStatus.timestampServiceNotAvailable.code
/// -67886: An unrecognized or unsupported Algorithm Identifier in timestamp.
public let errSecTimestampBadAlg: OSStatus = KeychainStatus.timestampBadAlg.code
/// -67887: The timestamp transaction is not permitted or supported.
public let errSecTimestampBadRequest: OSStatus = KeychainStatus.timestampBadRequest.code
/// -67888: The timestamp data submitted has the wrong format.
public let errSecTimestampBadDataFormat: OSStatus = KeychainStatus.timestampBadDataFormat.code
/// -67889: The time source for the Timestamp Authority is not available.
public let errSecTimestampTimeNotAvailable: OSStatus = KeychainStatus.timestampTimeNotAvailable.code
/// -67890: The requested policy is not supported by the Timestamp Authority.
public let errSecTimestampUnacceptedPolicy: OSStatus = KeychainStatus.timestampUnacceptedPolicy.code
/// -67891: The requested extension is not supported by the Timestamp Authority.
public let errSecTimestampUnacceptedExtension: OSStatus = KeychainStatus.timestampUnacceptedExtension.code
/// -67892: The additional information requested is not available.
public let errSecTimestampAddInfoNotAvailable: OSStatus = KeychainStatus.timestampAddInfoNotAvailable.code
/// -67893: The timestamp request cannot be handled due to system failure.
public let errSecTimestampSystemFailure: OSStatus = KeychainStatus.timestampSystemFailure.code
/// -67894: A signing time was expected but was not found.
public let errSecSigningTimeMissing: OSStatus = KeychainStatus.signingTimeMissing.code
/// -67895: A timestamp transaction was rejected.
public let errSecTimestampRejection: OSStatus = KeychainStatus.timestampRejection.code
/// -67896: A timestamp transaction is waiting.
public let errSecTimestampWaiting: OSStatus = KeychainStatus.timestampWaiting.code
/// -67897: A timestamp authority revocation warning was issued.
public let errSecTimestampRevocationWarning: OSStatus = KeychainStatus.timestampRevocationWarning.code
/// -67898: A timestamp authority revocation notification was issued.
public let errSecTimestampRevocationNotification: OSStatus = KeychainStatus.timestampRevocationNotification.code
/// -67899: The requested policy is not allowed for this certificate.
public let errSecCertificatePolicyNotAllowed: OSStatus = KeychainStatus.certificatePolicyNotAllowed.code
/// -67900: The requested name is not allowed for this certificate.
public let errSecCertificateNameNotAllowed: OSStatus = KeychainStatus.certificateNameNotAllowed.code
/// -67901: The validity period in the certificate exceeds the maximum allowed.
public let errSecCertificateValidityPeriodTooLong: OSStatus = KeychainStatus.certificateValidityPeriodTooLong.code
/// -67902: The verified certificate is a CA rather than an end-entity
public let errSecCertificateIsCA: OSStatus = KeychainStatus.certificateIsCA.code
/// -67903: The certificate contains multiple extensions with the same extension ID.
public let errSecCertificateDuplicateExtension: OSStatus = KeychainStatus.certificateDuplicateExtension.code

/// -34: The disk is full. Apple's old name for ``errSecDiskFull``.
@available(*, deprecated, renamed: "errSecDiskFull")
public let errSecDskFull: OSStatus = KeychainStatus.diskFull.code
/// -67827: The CRL authority was not valid. Apple's first, misspelt name for ``errSecInvalidCRLAuthority``.
@available(*, deprecated, renamed: "errSecInvalidCRLAuthority")
public let errSecInvaldCRLAuthority: OSStatus = KeychainStatus.invalidCRLAuthority.code
/// -67852: The tuple credentials are not valid. Apple's first, misspelt name for ``errSecInvalidTupleCredentials``.
@available(*, deprecated, renamed: "errSecInvalidTupleCredentials")
public let errSecInvalidTupleCredendtials: OSStatus = KeychainStatus.invalidTupleCredentials.code

/// A human-readable message for a status code, as on Apple platforms; an unknown code
/// gives `OSStatus <n>`.
///
/// - Parameters:
///   - status: The status a Keychain Services function returned.
///   - reserved: Pass nil.
@discardableResult
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    NSString(string: KeychainStatus.message(for: status) ?? "OSStatus \(status)")
}
