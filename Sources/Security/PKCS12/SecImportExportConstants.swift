import Foundation

// The keys of SecPKCS12Import's options and of the dictionaries it returns, with Apple's raw
// values (SecImportExport.h; the values are those of Apple's Security sources). Declared
// `nonisolated(unsafe)` because NSString is not Sendable here; they are immutable.

// MARK: - Options

/// `passphrase`: the file's passphrase, a CFString.
nonisolated(unsafe) public let kSecImportExportPassphrase: CFString = "passphrase"
/// `keychain`: on macOS, the keychain (SecKeychain) to import into.
nonisolated(unsafe) public let kSecImportExportKeychain: CFString = "keychain"
/// `access`: on macOS, the access (SecAccess) of the imported items.
nonisolated(unsafe) public let kSecImportExportAccess: CFString = "access"
/// `memory`: a CFBoolean; when true, the items are returned without being added to a keychain.
nonisolated(unsafe) public let kSecImportToMemoryOnly: CFString = "memory"

// MARK: - Keys of each returned dictionary

/// `label`: the identity's friendly name, a CFString.
nonisolated(unsafe) public let kSecImportItemLabel: CFString = "label"
/// `keyid`: the identity's local key ID, a CFData.
nonisolated(unsafe) public let kSecImportItemKeyID: CFString = "keyid"
/// `trust`: a SecTrust for the identity's certificate and the file's other certificates.
nonisolated(unsafe) public let kSecImportItemTrust: CFString = "trust"
/// `chain`: the identity's certificate chain, a CFArray of SecCertificate.
nonisolated(unsafe) public let kSecImportItemCertChain: CFString = "chain"
/// `identity`: the SecIdentity.
nonisolated(unsafe) public let kSecImportItemIdentity: CFString = "identity"
