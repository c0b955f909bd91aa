import Foundation
import Security

/// A value that a ``Keychain`` stores as the bytes of an item's secret.
///
/// The formats are plain so that other code can read them:
/// - `String`: its UTF-8 bytes.
/// - `Data`: the bytes themselves.
/// - `Bool`: one byte, 1 or 0 (as keychain-swift stores it).
/// - Integers and floating-point numbers: their decimal text (`"42"`, `"0.1"`), which
///   reads back exactly.
///
/// For any other `Codable` value use ``Keychain/encode(_:forKey:)`` and
/// ``Keychain/decode(_:forKey:)``, which store JSON.
public protocol KeychainValue: Sendable {
    /// The bytes to store.
    func keychainData() throws(KeychainError) -> Data
    /// Reads a value from stored bytes; throws `errSecDecode` when they are not one.
    init(keychainData data: Data) throws(KeychainError)
}

extension String: KeychainValue {
    /// The UTF-8 bytes of the string.
    public func keychainData() throws(KeychainError) -> Data { Data(utf8) }

    /// Reads UTF-8 text; other bytes throw `errSecDecode`.
    public init(keychainData data: Data) throws(KeychainError) {
        guard let text = String(data: data, encoding: .utf8) else {
            throw KeychainError(status: errSecDecode, reason: "the stored value is not UTF-8 text")
        }
        self = text
    }
}

extension Data: KeychainValue {
    /// The bytes themselves.
    public func keychainData() throws(KeychainError) -> Data { self }

    /// The stored bytes.
    public init(keychainData data: Data) throws(KeychainError) { self = data }
}

extension Bool: KeychainValue {
    /// One byte: 1 for true, 0 for false.
    public func keychainData() throws(KeychainError) -> Data { Data([self ? 1 : 0]) }

    /// Reads one byte, 1 or 0; anything else throws `errSecDecode`.
    public init(keychainData data: Data) throws(KeychainError) {
        switch data {
        case Data([1]): self = true
        case Data([0]): self = false
        default: throw KeychainError(status: errSecDecode, reason: "the stored value is not a Bool")
        }
    }
}

extension KeychainValue where Self: LosslessStringConvertible & Numeric {
    /// The number's decimal text.
    public func keychainData() throws(KeychainError) -> Data { Data(description.utf8) }

    /// Reads the number's decimal text; anything else throws `errSecDecode`.
    public init(keychainData data: Data) throws(KeychainError) {
        guard let text = String(data: data, encoding: .utf8), let number = Self(text) else {
            throw KeychainError(status: errSecDecode, reason: "the stored value is not a \(Self.self)")
        }
        self = number
    }
}

extension Int: KeychainValue {}
extension Int8: KeychainValue {}
extension Int16: KeychainValue {}
extension Int32: KeychainValue {}
extension Int64: KeychainValue {}
extension UInt: KeychainValue {}
extension UInt8: KeychainValue {}
extension UInt16: KeychainValue {}
extension UInt32: KeychainValue {}
extension UInt64: KeychainValue {}
extension Double: KeychainValue {}
extension Float: KeychainValue {}
