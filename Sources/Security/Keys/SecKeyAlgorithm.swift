import Foundation

/// An algorithm a ``SecKey`` can perform: a signature, encryption or key-exchange scheme,
/// named by Apple's identifier (such as `algid:sign:ECDSA:message-X962:SHA256`).
///
/// The static members name the algorithms, as on Apple platforms
/// (`SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256`).
public struct SecKeyAlgorithm: Hashable, Equatable, RawRepresentable, Sendable {
    /// Apple's identifier, as Swift text: what equality and hashing compare.
    let identifier: String

    /// Apple's identifier of the algorithm.
    public var rawValue: CFString { identifier as NSString }

    /// An algorithm from its identifier.
    public init(_ rawValue: CFString) {
        identifier = rawValue as String
    }

    /// An algorithm from its identifier.
    public init(rawValue: CFString) {
        identifier = rawValue as String
    }
}
