import Foundation
import Security

/// How ``Keychain/encode(_:forKey:)`` and ``Keychain/decode(_:forKey:)`` turn values into
/// bytes: JSON with Foundation's default strategies.
enum JSONValueCoding {
    static func encode<Value: Encodable>(_ value: Value) throws(KeychainError) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            // The encoder's message may quote the value, so only the type is reported.
            throw KeychainError(status: errSecParam, reason: "a \(Value.self) cannot be encoded as JSON")
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(KeychainError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw KeychainError(status: errSecDecode, reason: "the stored value is not a JSON \(Value.self)")
        }
    }
}
