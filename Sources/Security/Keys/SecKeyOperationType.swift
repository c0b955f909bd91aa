import Foundation

/// The kinds of operation a key can be asked for, as ``SecKeyIsAlgorithmSupported(_:_:_:)``
/// takes them; Apple's raw values.
@frozen
public enum SecKeyOperationType: Int, @unchecked Sendable {
    /// ``SecKeyCreateSignature(_:_:_:_:)``.
    case sign = 0
    /// ``SecKeyVerifySignature(_:_:_:_:_:)``.
    case verify = 1
    /// ``SecKeyCreateEncryptedData(_:_:_:_:)``.
    case encrypt = 2
    /// ``SecKeyCreateDecryptedData(_:_:_:_:)``.
    case decrypt = 3
    /// `SecKeyCopyKeyExchangeResult`.
    case keyExchange = 4
}
