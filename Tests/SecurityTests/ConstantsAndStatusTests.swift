import Foundation
import Security
import Testing
import TestSupport

/// Apple's names with their raw values, the Core Foundation names, the functions' signatures,
/// and the status codes with their messages.
@Suite("Constants, CF names and status codes")
struct ConstantsAndStatusTests {
    private func check(_ table: [(CFString, String)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (constant, raw) in table {
            #expect(constant as String == raw, "expected raw value \"\(raw)\"", sourceLocation: sourceLocation)
        }
    }

    // MARK: Raw values

    @Test("Class constants")
    func classConstants() {
        check([
            (kSecClass, "class"), (kSecClassGenericPassword, "genp"), (kSecClassInternetPassword, "inet"),
            (kSecClassCertificate, "cert"), (kSecClassKey, "keys"), (kSecClassIdentity, "idnt"),
        ])
    }

    @Test("Attribute constants")
    func attributeConstants() {
        check([
            (kSecAttrAccessible, "pdmn"), (kSecAttrAccessControl, "accc"), (kSecAttrAccessGroup, "agrp"),
            (kSecAttrSynchronizable, "sync"), (kSecAttrCreationDate, "cdat"), (kSecAttrModificationDate, "mdat"),
            (kSecAttrDescription, "desc"), (kSecAttrComment, "icmt"), (kSecAttrCreator, "crtr"),
            (kSecAttrType, "type"), (kSecAttrLabel, "labl"), (kSecAttrIsInvisible, "invi"),
            (kSecAttrIsNegative, "nega"), (kSecAttrAccount, "acct"), (kSecAttrService, "svce"),
            (kSecAttrGeneric, "gena"), (kSecAttrSecurityDomain, "sdmn"), (kSecAttrServer, "srvr"),
            (kSecAttrProtocol, "ptcl"), (kSecAttrAuthenticationType, "atyp"), (kSecAttrPort, "port"),
            (kSecAttrPath, "path"), (kSecAttrSubject, "subj"), (kSecAttrIssuer, "issr"),
            (kSecAttrSerialNumber, "slnr"), (kSecAttrSubjectKeyID, "skid"), (kSecAttrPublicKeyHash, "pkhh"),
            (kSecAttrCertificateType, "ctyp"), (kSecAttrCertificateEncoding, "cenc"), (kSecAttrKeyClass, "kcls"),
            (kSecAttrApplicationLabel, "klbl"), (kSecAttrApplicationTag, "atag"), (kSecAttrKeyType, "type"),
            (kSecAttrKeySizeInBits, "bsiz"), (kSecAttrEffectiveKeySize, "esiz"), (kSecAttrIsPermanent, "perm"),
            (kSecAttrStartDate, "sdat"), (kSecAttrEndDate, "edat"), (kSecAttrCanEncrypt, "encr"),
            (kSecAttrCanDecrypt, "decr"), (kSecAttrCanDerive, "drve"), (kSecAttrCanSign, "sign"),
            (kSecAttrCanVerify, "vrfy"), (kSecAttrCanWrap, "wrap"), (kSecAttrCanUnwrap, "unwp"),
            (kSecAttrTokenID, "tkid"), (kSecAttrSyncViewHint, "vwht"), (kSecAttrIsSensitive, "sens"),
            (kSecAttrIsExtractable, "extr"),
        ])
    }

    @Test("Accessibility values, kSecAttrSynchronizableAny and kSecUseDataProtectionKeychain")
    func accessibilityConstants() {
        check([
            (kSecAttrAccessibleWhenUnlocked, "ak"), (kSecAttrAccessibleAfterFirstUnlock, "ck"),
            (kSecAttrAccessibleAlways, "dk"), (kSecAttrAccessibleWhenUnlockedThisDeviceOnly, "aku"),
            (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, "cku"),
            (kSecAttrAccessibleAlwaysThisDeviceOnly, "dku"),
            (kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, "akpu"),
            (kSecAttrSynchronizableAny, "syna"), (kSecUseDataProtectionKeychain, "nleg"),
        ])
    }

    @Test("Match, return, value and use keys")
    func matchReturnValueUseConstants() {
        check([
            (kSecMatchLimit, "m_Limit"), (kSecMatchLimitOne, "m_LimitOne"), (kSecMatchLimitAll, "m_LimitAll"),
            (kSecMatchCaseInsensitive, "m_CaseInsensitive"), (kSecMatchItemList, "m_ItemList"),
            (kSecMatchPolicy, "m_Policy"), (kSecMatchIssuers, "m_Issuers"), (kSecMatchValidOnDate, "m_ValidOnDate"),
            (kSecMatchTrustedOnly, "m_TrustedOnly"), (kSecMatchEmailAddressIfPresent, "m_EmailAddressIfPresent"),
            (kSecMatchSubjectContains, "m_SubjectContains"),
            (kSecMatchHostOrSubdomainOfHost, "m_HostOrSubdomainOfHost"),
            (kSecReturnData, "r_Data"), (kSecReturnAttributes, "r_Attributes"), (kSecReturnRef, "r_Ref"),
            (kSecReturnPersistentRef, "r_PersistentRef"),
            (kSecValueData, "v_Data"), (kSecValueRef, "v_Ref"), (kSecValuePersistentRef, "v_PersistentRef"),
            (kSecUseItemList, "u_ItemList"), (kSecUseOperationPrompt, "u_OpPrompt"),
            (kSecUseAuthenticationUI, "u_AuthUI"), (kSecUseAuthenticationUIAllow, "u_AuthUIA"),
            (kSecUseAuthenticationUIFail, "u_AuthUIF"), (kSecUseAuthenticationUISkip, "u_AuthUIS"),
            (kSecUseAuthenticationContext, "u_AuthCtx"), (kSecUseNoAuthenticationUI, "u_NoAuthUI"),
        ])
    }

    @Test("Protocol values")
    func protocolConstants() {
        check([
            (kSecAttrProtocolFTP, "ftp "), (kSecAttrProtocolFTPAccount, "ftpa"), (kSecAttrProtocolHTTP, "http"),
            (kSecAttrProtocolIRC, "irc "), (kSecAttrProtocolNNTP, "nntp"), (kSecAttrProtocolPOP3, "pop3"),
            (kSecAttrProtocolSMTP, "smtp"), (kSecAttrProtocolSOCKS, "sox "), (kSecAttrProtocolIMAP, "imap"),
            (kSecAttrProtocolLDAP, "ldap"), (kSecAttrProtocolAppleTalk, "atlk"), (kSecAttrProtocolAFP, "afp "),
            (kSecAttrProtocolTelnet, "teln"), (kSecAttrProtocolSSH, "ssh "), (kSecAttrProtocolFTPS, "ftps"),
            (kSecAttrProtocolHTTPS, "htps"), (kSecAttrProtocolHTTPProxy, "htpx"),
            (kSecAttrProtocolHTTPSProxy, "htsx"), (kSecAttrProtocolFTPProxy, "ftpx"), (kSecAttrProtocolSMB, "smb "),
            (kSecAttrProtocolRTSP, "rtsp"), (kSecAttrProtocolRTSPProxy, "rtsx"), (kSecAttrProtocolDAAP, "daap"),
            (kSecAttrProtocolEPPC, "eppc"), (kSecAttrProtocolIPP, "ipp "), (kSecAttrProtocolNNTPS, "ntps"),
            (kSecAttrProtocolLDAPS, "ldps"), (kSecAttrProtocolTelnetS, "tels"), (kSecAttrProtocolIMAPS, "imps"),
            (kSecAttrProtocolIRCS, "ircs"), (kSecAttrProtocolPOP3S, "pops"),
        ])
    }

    @Test("Authentication types, key classes and key types")
    func authenticationAndKeyConstants() {
        check([
            (kSecAttrAuthenticationTypeNTLM, "ntlm"), (kSecAttrAuthenticationTypeMSN, "msna"),
            (kSecAttrAuthenticationTypeDPA, "dpaa"), (kSecAttrAuthenticationTypeRPA, "rpaa"),
            (kSecAttrAuthenticationTypeHTTPBasic, "http"), (kSecAttrAuthenticationTypeHTTPDigest, "httd"),
            (kSecAttrAuthenticationTypeHTMLForm, "form"), (kSecAttrAuthenticationTypeDefault, "dflt"),
            (kSecAttrKeyClassPublic, "0"), (kSecAttrKeyClassPrivate, "1"), (kSecAttrKeyClassSymmetric, "2"),
            (kSecAttrKeyTypeRSA, "42"), (kSecAttrKeyTypeEC, "73"), (kSecAttrKeyTypeECSECPrimeRandom, "73"),
        ])
    }

    // MARK: Core Foundation names

    @Test("The Core Foundation names compile and have Apple's types")
    func coreFoundationNames() {
        let status: OSStatus = noErr
        let asInt32: Int32 = status
        #expect(asInt32 == 0)
        let string: CFString = kSecClass
        let object: CFTypeRef = kSecAttrAccount
        let anyObject: AnyObject = kSecAttrAccount as AnyObject
        let name = "acct"
        let converted: CFString = name as CFString
        #expect((converted as String) == kSecAttrAccount as String)
        let dictionary: CFDictionary = [kSecClass as String: kSecClassGenericPassword] as CFDictionary
        let data: CFData = Data([1, 2]) as CFData
        let array: CFArray = [1, 2, 3] as CFArray
        let yes: CFBoolean = kCFBooleanTrue
        let no: CFBoolean = kCFBooleanFalse
        let allocator = kCFAllocatorDefault
        let error: CFError? = nil
        let flags: CFOptionFlags = 0
        #expect(string as String == "class")
        #expect(object as? String == "acct")
        #expect(anyObject as? String == "acct")
        #expect(dictionary.count == 1)
        #expect(data.length == 2)
        #expect(array.count == 3)
        #expect(yes as? Bool == true)
        #expect(no as? Bool == false)
        #expect(allocator != nil)
        #expect(error == nil)
        #expect(flags == 0)
    }

    @Test("The functions have Apple's exact signatures")
    func functionSignatures() {
        let add: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemAdd
        let copyMatching: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemCopyMatching
        let update: (CFDictionary, CFDictionary) -> OSStatus = SecItemUpdate
        let delete: (CFDictionary) -> OSStatus = SecItemDelete
        let message: (OSStatus, UnsafeMutableRawPointer?) -> CFString? = SecCopyErrorMessageString

        let keychain = PrivateKeychain()
        keychain.run {
            let item = genericPassword().with([kSecValueData as String: Data("s".utf8)])
            #expect(add(item as CFDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            let query = genericPassword().with([kSecReturnData as String: kCFBooleanTrue as Any])
            #expect(copyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("s".utf8))
            let changes = [kSecValueData as String: Data("t".utf8)]
            #expect(update(genericPassword() as CFDictionary, changes as CFDictionary) == errSecSuccess)
            #expect(delete(genericPassword() as CFDictionary) == errSecSuccess)
            #expect(delete(genericPassword() as CFDictionary) == errSecItemNotFound)
        }
        #expect(message(errSecItemNotFound, nil) as String? == "The specified item could not be found in the keychain.")
    }

    @Test("Darwin-style code with CFString keys and kCFBooleanTrue works unchanged")
    func darwinStyleQuery() throws {
        let keychain = PrivateKeychain()
        let secret = "hunter2".data(using: .utf8)!
        let addQuery: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrAccount: "alice",
            kSecAttrService: "example.com",
            kSecValueData: secret,
        ]
        #expect(keychain.run { SecItemAdd(addQuery as CFDictionary, nil) } == errSecSuccess)
        let searchQuery: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrAccount: "alice",
            kSecAttrService: "example.com",
            kSecReturnData: kCFBooleanTrue as Any,
            kSecReturnAttributes: kCFBooleanTrue as Any,
            kSecMatchLimit: kSecMatchLimitOne,
        ]
        var result: CFTypeRef?
        #expect(keychain.run { SecItemCopyMatching(searchQuery as CFDictionary, &result) } == errSecSuccess)
        let item = try #require(result as? [String: Any])
        #expect(item[kSecValueData as String] as? Data == secret)
        #expect(item[kSecAttrAccount as String] as? String == "alice")
        let nsItem = try #require(result as? NSDictionary)
        #expect(nsItem[kSecAttrAccount] as? String == "alice")
        let updateQuery: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "alice",
                                            kSecAttrService: "example.com"]
        let changes: [CFString: Any] = [kSecValueData: Data("new".utf8)]
        #expect(keychain.run { SecItemUpdate(updateQuery as CFDictionary, changes as CFDictionary) } == errSecSuccess)
        #expect(keychain.run { SecItemDelete(updateQuery as CFDictionary) } == errSecSuccess)
    }

    @Test("A query typed [AnyHashable: Any] with the constants as keys works")
    func anyHashableQuery() {
        let keychain = PrivateKeychain()
        let item: [AnyHashable: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrAccount: "alice",
            kSecValueData: Data("s".utf8),
        ]
        #expect(keychain.run { SecItemAdd(item as CFDictionary, nil) } == errSecSuccess)
        let query: [AnyHashable: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "alice",
                                         kSecReturnData: true]
        var result: CFTypeRef?
        #expect(keychain.run { SecItemCopyMatching(query as CFDictionary, &result) } == errSecSuccess)
        #expect(result as? Data == Data("s".utf8))
    }

    @Test("A query as an NSDictionary with NSString values works")
    func nsDictionaryQuery() {
        let keychain = PrivateKeychain()
        let query = NSMutableDictionary()
        query[kSecClass] = kSecClassGenericPassword
        query[kSecAttrAccount] = NSString(string: "alice")
        query[kSecValueData] = NSData(data: Data("s".utf8))
        #expect(keychain.run { SecItemAdd(query, nil) } == errSecSuccess)
        #expect(keychain.secret([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice"])
            == Data("s".utf8))
    }

    // MARK: Status codes

    private static let statuses: [(OSStatus, Int32, String)] = [
        (errSecSuccess, 0, "No error."),
        (errSecUnimplemented, -4, "Function or operation not implemented."),
        (errSecDiskFull, -34, "The disk is full."),
        (errSecIO, -36, "I/O error."),
        (errSecParam, -50, "One or more parameters passed to a function were not valid."),
        (errSecAllocate, -108, "Failed to allocate memory."),
        (errSecUserCanceled, -128, "User canceled the operation."),
        (errSecNotAvailable, -25291, "No keychain is available. You may need to restart your computer."),
        (errSecReadOnly, -25292, "This keychain cannot be modified."),
        (errSecAuthFailed, -25293, "The user name or passphrase you entered is not correct."),
        (errSecNoSuchKeychain, -25294, "The specified keychain could not be found."),
        (errSecInvalidKeychain, -25295, "The specified keychain is not a valid keychain file."),
        (errSecDuplicateKeychain, -25296, "A keychain with the same name already exists."),
        (errSecDuplicateItem, -25299, "The specified item already exists in the keychain."),
        (errSecItemNotFound, -25300, "The specified item could not be found in the keychain."),
        (errSecDataTooLarge, -25302,
         "This item contains information which is too large or in a format that cannot be displayed."),
        (errSecNoSuchAttr, -25303, "The specified attribute does not exist."),
        (errSecNoSuchClass, -25306, "The specified item does not appear to be a valid keychain item."),
        (errSecInteractionNotAllowed, -25308, "User interaction is not allowed."),
        (errSecWrongSecVersion, -25310,
         "This keychain was created by a different version of the system software and cannot be opened."),
        (errSecDecode, -26275, "Unable to decode the provided data."),
        (errSecInternal, -26276, "An internal error occurred in the Security framework."),
        (errSecMissingEntitlement, -34018, "A required entitlement isn't present."),
    ]

    @Test("Every status code has its value and message", arguments: 0..<23)
    func statusCode(index: Int) throws {
        let (constant, value, text) = Self.statuses[index]
        #expect(constant == value)
        let message = try #require(SecCopyErrorMessageString(value, nil))
        #expect(message as String == text)
    }

    @Test("An unknown code gives \"OSStatus <n>\"", arguments: [Int32(-1), 1, -25250, 12345, -99999, Int32.min])
    func unknownStatus(code: Int32) throws {
        let message = try #require(SecCopyErrorMessageString(code, nil))
        #expect(message as String == "OSStatus \(code)")
    }

    @Test("A database that cannot be opened is errSecNotAvailable")
    func unopenableDatabase() throws {
        let directory = TestScratch.folder("unopenable")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Not an SQLite database.
        try Data(repeating: 0x5A, count: 8192).write(to: directory.appendingPathComponent("garbage.keychain-db"))
        let garbage = KeychainEnvironment(directory: directory, keychainName: "garbage", accessGroups: ["com.example.app"])
        let status = KeychainEnvironment.withValue(garbage) {
            SecItemAdd(genericPassword() as CFDictionary, nil)
        }
        #expect(status == errSecNotAvailable)
        let search = KeychainEnvironment.withValue(garbage) {
            SecItemCopyMatching(genericPassword() as CFDictionary, nil)
        }
        #expect(search == errSecNotAvailable)

        // A folder that cannot be created (its parent is a file).
        let file = directory.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let blocked = KeychainEnvironment(directory: file.appendingPathComponent("keychains"),
                                          accessGroups: ["com.example.app"])
        #expect(KeychainEnvironment.withValue(blocked) { SecItemAdd(genericPassword() as CFDictionary, nil) }
            == errSecNotAvailable)
    }
}
