import Foundation

/// Why a PKCS#12 file could not be read or written.
///
/// Messages name the structure or algorithm at fault; they never contain the passphrase or
/// any decrypted byte.
package enum PKCS12Failure: Error, Equatable, CustomStringConvertible {
    /// The passphrase does not open the file: its MAC does not verify, or, in a file without
    /// a MAC, decryption gives bad padding or bytes that are not the expected structure.
    case wrongPassphrase
    /// The bytes are not a PKCS#12 file (DER, structure or lengths), or it is damaged.
    case malformed(String)
    /// A well-formed file uses something this reader does not implement (an algorithm,
    /// public-key integrity or privacy mode).
    case unsupported(String)
    /// The file asks for more work or memory than the bounds of ``PKCS12Limits`` allow;
    /// refused before any of that work is done.
    case exceedsBound(String)
    /// Writing failed: the input to the writer is not what it must be.
    case cannotWrite(String)

    /// The status `SecPKCS12Import` returns for this failure, as Apple's does.
    ///
    /// Apple's `SecPKCS12Import` (iOS and the data-protection path on macOS) answers
    /// errSecAuthFailed for a MAC that does not verify and errSecDecode for every other
    /// failure to read the file, unsupported algorithms included (its decoder fails on
    /// them). The same here, so that code written for Apple platforms sees the same
    /// statuses; an exceeded bound is errSecParam, as for keychain archives whose KDF asks
    /// for more than the bound allows.
    package var status: OSStatus {
        switch self {
        case .wrongPassphrase: errSecAuthFailed
        case .malformed, .unsupported: errSecDecode
        case .exceedsBound, .cannotWrite: errSecParam
        }
    }

    package var description: String {
        switch self {
        case .wrongPassphrase: "PKCS#12: the passphrase is wrong (the file's integrity check fails)"
        case .malformed(let why): "PKCS#12: the file is malformed: \(why)"
        case .unsupported(let what): "PKCS#12: not supported: \(what)"
        case .exceedsBound(let why): "PKCS#12: the file asks for more than the bound allows: \(why)"
        case .cannotWrite(let why): "PKCS#12: cannot write: \(why)"
        }
    }
}
