import Foundation
@_implementationOnly import KeychainCore

/// The object `kSecReturnRef` gives for a stored key or certificate, made from the item's
/// data and attributes as Apple's SecItemCreateFromAttributeDictionary does.
enum ItemObject {
    /// The key or certificate an item holds; nil for another class, or for data that is no
    /// such object (a symmetric key, or bytes stored as a certificate that are not one).
    static func make(_ item: FoundItem) -> AnyObject? {
        guard let record = item.record, let data = item.data else { return nil }
        switch record.itemClass {
        case .key: return SecKey.fromItem(attributes: record.attributes, data: data)
        case .certificate: return SecCertificate.make(derBytes: [UInt8](data))
        default: return nil
        }
    }
}
