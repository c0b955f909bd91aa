import Foundation
import KeychainCore

/// What a Secret Service item keeps in its keychain `kSecAttrGeneric`, which the keychain seals
/// like every attribute and the Keychain Services API leaves alone: its attribute set
/// (``ItemAttributes/encoded``) and the content type of its secret (the `content_type` of the
/// API's Secret struct).
///
/// The content type follows the set only when it is not ``defaultContentType``, as the 4
/// bytes `SSCT`, its UTF-8 length (32-bit big-endian) and bytes; so an item stored as
/// `text/plain` keeps exactly its set's encoding.
struct ItemGenericData: Equatable, Sendable {
    let attributes: ItemAttributes
    let contentType: String

    /// The content type of a secret stored without one: items other keychain tools added, and
    /// those stored before content types were kept.
    static let defaultContentType = "text/plain"

    init(attributes: ItemAttributes, contentType: String) {
        self.attributes = attributes
        self.contentType = contentType
    }

    var encoded: Data {
        var bytes = attributes.encoded
        guard contentType != Self.defaultContentType else { return bytes }
        bytes.append(contentsOf: Self.contentTypeMagic)
        LookupAttributeSet.append(UInt32(contentType.utf8.count), to: &bytes)
        bytes.append(contentsOf: Array(contentType.utf8))
        return bytes
    }

    /// What `data` holds, or nil when it is not exactly an ``encoded`` value (the generic data
    /// of an item some other program wrote).
    init?(encoded data: Data) {
        let bytes = [UInt8](data)
        var offset = 0
        guard let attributes = ItemAttributes.decode(bytes, at: &offset) else { return nil }
        if offset == bytes.count {
            self.init(attributes: attributes, contentType: Self.defaultContentType)
            return
        }
        guard bytes.count - offset >= 8, Array(bytes[offset..<offset + 4]) == Self.contentTypeMagic else { return nil }
        let length = bytes[offset + 4..<offset + 8].reduce(0) { $0 << 8 | Int($1) }
        // Exactly the rest, and never the default (which has no trailer): one encoding per value.
        guard length <= Limits.stringBytes, bytes.count - offset - 8 == length,
              let contentType = String(validating: bytes[(offset + 8)...], as: UTF8.self),
              contentType != Self.defaultContentType
        else { return nil }
        self.init(attributes: attributes, contentType: contentType)
    }

    private static let contentTypeMagic: [UInt8] = Array("SSCT".utf8)
}
