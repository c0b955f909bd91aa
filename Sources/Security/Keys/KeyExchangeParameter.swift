import Foundation

/// A key in the parameter dictionary of ``SecKeyCopyKeyExchangeResult(_:_:_:_:_:)``.
///
/// As on Apple platforms, Swift code names them `SecKeyKeyExchangeParameter.requestedSize`
/// and `.sharedInfo` and uses their `rawValue` as the dictionary key:
///
/// ```swift
/// let parameters = [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32,
///                   SecKeyKeyExchangeParameter.sharedInfo.rawValue: info] as CFDictionary
/// ```
public struct SecKeyKeyExchangeParameter: Hashable, Equatable, RawRepresentable, Sendable {
    /// Apple's identifier, as Swift text: what equality and hashing compare.
    let identifier: String

    /// The dictionary key.
    public var rawValue: CFString { identifier as NSString }

    /// A parameter from its dictionary key.
    public init(_ rawValue: CFString) {
        identifier = rawValue as String
    }

    /// A parameter from its dictionary key.
    public init(rawValue: CFString) {
        identifier = rawValue as String
    }

    /// The number of bytes the X9.63 key-derivation algorithms produce (a whole `CFNumber`);
    /// required by them, ignored by `ecdhKeyExchangeStandard` and `ecdhKeyExchangeCofactor`.
    public static let requestedSize = SecKeyKeyExchangeParameter("requestedSize" as CFString)

    /// The shared info of the X9.63 key derivation (`CFData`); none when absent.
    public static let sharedInfo = SecKeyKeyExchangeParameter("sharedInfo" as CFString)
}

/// C's name of ``SecKeyKeyExchangeParameter/requestedSize``, renamed in Swift as on Apple platforms.
@available(*, unavailable, renamed: "SecKeyKeyExchangeParameter.requestedSize")
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterRequestedSize: CFString = "requestedSize"

/// C's name of ``SecKeyKeyExchangeParameter/sharedInfo``, renamed in Swift as on Apple platforms.
@available(*, unavailable, renamed: "SecKeyKeyExchangeParameter.sharedInfo")
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterSharedInfo: CFString = "sharedInfo"
