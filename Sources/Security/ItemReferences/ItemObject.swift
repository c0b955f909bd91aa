import Foundation
@_implementationOnly import KeychainCore

/// The object `kSecReturnRef` gives for a stored key or certificate, made from the item's
/// data and attributes as Apple's SecItemCreateFromAttributeDictionary does.
enum ItemObject {
    /// The key or certificate an item holds; nil for another class, or for data that is no
    /// such object (a symmetric key, or bytes stored as a certificate that are not one). A
    /// Secure Enclave-style key keeps `authentication`, the options of the search that found
    /// it, for when it is used.
    static func make(_ item: FoundItem, authentication: AuthenticationOptions = AuthenticationOptions()) -> AnyObject? {
        guard let record = item.record, let data = item.data else { return nil }
        switch record.itemClass {
        case .key: return SecKey.fromItem(record, data: data, authentication: authentication)
        case .certificate: return SecCertificate.make(derBytes: [UInt8](data))
        default: return nil
        }
    }
}
