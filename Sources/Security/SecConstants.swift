import Foundation

// The names of Keychain Services with Apple's raw values, which are part of the API: code
// and tests compare against "acct" or "sync" directly. Declared `nonisolated(unsafe)`
// because NSString is not Sendable here; they are immutable.

// MARK: - Item classes (`kSecClass` and its values)

/// `class`.
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// `genp`.
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// `inet`.
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = "inet"
/// `cert`.
nonisolated(unsafe) public let kSecClassCertificate: CFString = "cert"
/// `keys`.
nonisolated(unsafe) public let kSecClassKey: CFString = "keys"
/// `idnt`.
nonisolated(unsafe) public let kSecClassIdentity: CFString = "idnt"

// MARK: - Attributes

/// `pdmn`.
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// `accc`.
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
/// `agrp`.
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// `sync`.
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
/// `cdat`.
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat"
/// `mdat`.
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat"
/// `desc`.
nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc"
/// `icmt`.
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt"
/// `crtr`.
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr"
/// `type`.
nonisolated(unsafe) public let kSecAttrType: CFString = "type"
/// `labl`.
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl"
/// `invi`.
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi"
/// `nega`.
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega"
/// `acct`.
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// `svce`.
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// `gena`.
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena"
/// `sdmn`.
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = "sdmn"
/// `srvr`.
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr"
/// `ptcl`.
nonisolated(unsafe) public let kSecAttrProtocol: CFString = "ptcl"
/// `atyp`.
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = "atyp"
/// `port`.
nonisolated(unsafe) public let kSecAttrPort: CFString = "port"
/// `path`.
nonisolated(unsafe) public let kSecAttrPath: CFString = "path"
/// `subj`.
nonisolated(unsafe) public let kSecAttrSubject: CFString = "subj"
/// `issr`.
nonisolated(unsafe) public let kSecAttrIssuer: CFString = "issr"
/// `slnr`.
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = "slnr"
/// `skid`.
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = "skid"
/// `pkhh`.
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = "pkhh"
/// `ctyp`.
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = "ctyp"
/// `cenc`.
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = "cenc"
/// `kcls`.
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls"
/// `klbl`.
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = "klbl"
/// `atag`.
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = "atag"
/// `type`.
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type"
/// `bsiz`.
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = "bsiz"
/// `esiz`.
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = "esiz"
/// `perm`.
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = "perm"
/// `sdat`.
nonisolated(unsafe) public let kSecAttrStartDate: CFString = "sdat"
/// `edat`.
nonisolated(unsafe) public let kSecAttrEndDate: CFString = "edat"
/// `encr`.
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = "encr"
/// `decr`.
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = "decr"
/// `drve`.
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = "drve"
/// `sign`.
nonisolated(unsafe) public let kSecAttrCanSign: CFString = "sign"
/// `vrfy`.
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = "vrfy"
/// `wrap`.
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = "wrap"
/// `unwp`.
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = "unwp"
/// `tkid`.
nonisolated(unsafe) public let kSecAttrTokenID: CFString = "tkid"
/// `com.apple.setoken`: the `kSecAttrTokenID` of Secure Enclave keys. On Linux such a P-256 key
/// is sealed under this machine's ThisDeviceOnly class key, and its private part never leaves
/// the library.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken"
/// `vwht`.
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = "vwht"
/// `sens`.
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = "sens"
/// `extr`.
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = "extr"
/// `syna`.
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna"
/// `nleg`.
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"

// MARK: - Values of `kSecAttrAccessible`

/// `ak`.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// `ck`.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// `dk`.
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk"
/// `aku`.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// `cku`.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// `dku`.
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"
/// `akpu`.
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"

// MARK: - Search keys (`kSecMatch*`)

/// `m_Limit`.
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// `m_LimitOne`.
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// `m_LimitAll`.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
/// `m_CaseInsensitive`.
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive"
/// `m_ItemList`.
nonisolated(unsafe) public let kSecMatchItemList: CFString = "m_ItemList"
/// `m_Policy`.
nonisolated(unsafe) public let kSecMatchPolicy: CFString = "m_Policy"
/// `m_Issuers`.
nonisolated(unsafe) public let kSecMatchIssuers: CFString = "m_Issuers"
/// `m_ValidOnDate`.
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = "m_ValidOnDate"
/// `m_TrustedOnly`.
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = "m_TrustedOnly"
/// `m_EmailAddressIfPresent`.
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent"
/// `m_SubjectContains`.
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = "m_SubjectContains"
/// `m_HostOrSubdomainOfHost`.
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = "m_HostOrSubdomainOfHost"

// MARK: - Return keys (`kSecReturn*`)

/// `r_Data`.
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// `r_Attributes`.
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
/// `r_Ref`.
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref"
/// `r_PersistentRef`.
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = "r_PersistentRef"

// MARK: - Value keys (`kSecValue*`)

/// `v_Data`.
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// `v_Ref`.
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref"
/// `v_PersistentRef`.
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef"

// MARK: - Use keys (`kSecUse*`)

/// `u_ItemList`.
nonisolated(unsafe) public let kSecUseItemList: CFString = "u_ItemList"
/// The keychain a query uses, a `SecKeychain`, instead of the default one.
nonisolated(unsafe) public let kSecUseKeychain: CFString = "u_Keychain"
/// `u_OpPrompt`.
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt"
/// `u_AuthUI`.
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
/// `u_AuthUIA`.
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"
/// `u_AuthUIF`.
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"
/// `u_AuthUIS`.
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"
/// `u_AuthCtx`.
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
/// `u_NoAuthUI`.
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI"

// MARK: - Values of `kSecAttrProtocol`

/// `ftp `.
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = "ftp "
/// `ftpa`.
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = "ftpa"
/// `http`.
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = "http"
/// `irc `.
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = "irc "
/// `nntp`.
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = "nntp"
/// `pop3`.
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = "pop3"
/// `smtp`.
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = "smtp"
/// `sox `.
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = "sox "
/// `imap`.
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = "imap"
/// `ldap`.
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = "ldap"
/// `atlk`.
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = "atlk"
/// `afp `.
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = "afp "
/// `teln`.
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = "teln"
/// `ssh `.
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = "ssh "
/// `ftps`.
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = "ftps"
/// `htps`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = "htps"
/// `htpx`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = "htpx"
/// `htsx`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = "htsx"
/// `ftpx`.
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = "ftpx"
/// `smb `.
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = "smb "
/// `rtsp`.
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = "rtsp"
/// `rtsx`.
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = "rtsx"
/// `daap`.
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = "daap"
/// `eppc`.
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = "eppc"
/// `ipp `.
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = "ipp "
/// `ntps`.
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = "ntps"
/// `ldps`.
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = "ldps"
/// `tels`.
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = "tels"
/// `imps`.
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = "imps"
/// `ircs`.
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = "ircs"
/// `pops`.
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = "pops"

// MARK: - Values of `kSecAttrAuthenticationType`

/// `ntlm`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"
/// `msna`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = "msna"
/// `dpaa`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"
/// `rpaa`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"
/// `http`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"
/// `httd`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"
/// `form`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"
/// `dflt`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"

// MARK: - Values of `kSecAttrKeyClass` and `kSecAttrKeyType`

/// `0`.
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0"
/// `1`.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = "1"
/// `2`.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = "2"
/// `42`.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42"
/// `73`.
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = "73"
/// `73`.
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"
