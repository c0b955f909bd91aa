import Crypto
import Foundation

/// The keys of one keychain: a class key per protection class (one per `kSecAttrAccessible`
/// value, so that binding ThisDeviceOnly classes to a machine secret later rewraps keys and
/// re-encrypts nothing) and the index key for the keyed hashes of searchable attributes.
///
/// The keys are random and stored wrapped in the `keybag` table. A row says how its key is
/// wrapped; this format knows `device` (AES-GCM under the device key). A password-derived
/// wrapping adds rows of another kind without changing items.
struct Keybag: Sendable {
    let indexKey: SymmetricKey
    let classKeys: [Accessibility: SymmetricKey]

    static let indexKeyName = "index"
    static let deviceWrapping = "device"

    /// All key names the keybag holds.
    static var keyNames: [String] { [indexKeyName] + Accessibility.allCases.map(\.rawValue) }

    func classKey(for accessibility: Accessibility) throws(KeychainError) -> SymmetricKey {
        guard let key = classKeys[accessibility] else { throw .interactionNotAllowed }
        return key
    }

    static func wrap(_ key: SymmetricKey, named name: String, with wrappingKey: SymmetricKey) throws(KeychainError) -> Data {
        try RecordSealer.seal(key.withUnsafeBytes { Data($0) }, with: wrappingKey, binding: aad(name))
    }

    static func unwrap(_ wrapped: Data, named name: String, with wrappingKey: SymmetricKey) throws(KeychainError) -> SymmetricKey {
        do {
            return SymmetricKey(data: try RecordSealer.open(wrapped, with: wrappingKey, binding: aad(name)))
        } catch {
            throw .notAvailable("the \(name) key does not open with the device key")
        }
    }

    private static func aad(_ name: String) -> Data { Data("swift-keychain keybag \(name)".utf8) }
}
