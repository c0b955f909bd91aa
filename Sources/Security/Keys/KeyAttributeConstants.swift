import Foundation

// The key attributes and key-generation parameters that SecKey's functions read and
// report, with Apple's raw values (SecItem.h, SecKey.h).

/// `private`: in ``SecKeyCreateRandomKey(_:_:)``'s parameters, the attributes of the private key.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = "private"
/// `public`: in ``SecKeyCreateRandomKey(_:_:)``'s parameters, the attributes of the public key.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = "public"
/// `priv`.
nonisolated(unsafe) public let kSecAttrIsPrivate: CFString = "priv"
/// `modi`.
nonisolated(unsafe) public let kSecAttrIsModifiable: CFString = "modi"
/// `asen`.
nonisolated(unsafe) public let kSecAttrWasAlwaysSensitive: CFString = "asen"
/// `next`.
nonisolated(unsafe) public let kSecAttrWasNeverExtractable: CFString = "next"
/// `snrc`.
nonisolated(unsafe) public let kSecAttrCanSignRecover: CFString = "snrc"
/// `vyrc`.
nonisolated(unsafe) public let kSecAttrCanVerifyRecover: CFString = "vyrc"
