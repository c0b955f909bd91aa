import SwiftASN1

/// One attribute of a distinguished name (an AttributeTypeAndValue): its type's object
/// identifier, as content bytes, and its value as encoded.
struct NameAttribute {
    /// The content bytes of the type's OBJECT IDENTIFIER.
    let type: ArraySlice<UInt8>
    let value: ASN1Node

    // The encoded object identifiers of the attribute types the summary and names look for.
    /// 2.5.4.3
    static let commonName: [UInt8] = [0x55, 0x04, 0x03]
    /// 2.5.4.10
    static let organizationName: [UInt8] = [0x55, 0x04, 0x0A]
    /// 2.5.4.11
    static let organizationalUnitName: [UInt8] = [0x55, 0x04, 0x0B]
    /// 2.5.4.13
    static let description: [UInt8] = [0x55, 0x04, 0x0D]
    /// 1.2.840.113549.1.9.1, PKCS #9's emailAddress.
    static let emailAddress: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x01]

    /// Whether the attribute is of the type whose encoded identifier is `oid`.
    func isOfType(_ oid: [UInt8]) -> Bool { type.elementsEqual(oid) }

    /// The attributes of a Name, in the order of the encoding: relative distinguished names
    /// first to last, and within one the order of its SET. Nil if the Name is not a SEQUENCE
    /// of SETs of SEQUENCEs { OBJECT IDENTIFIER, value }.
    static func all(in name: ASN1Node) -> [NameAttribute]? {
        guard name.identifier == .sequence, case .constructed(let names) = name.content else { return nil }
        var attributes: [NameAttribute] = []
        for relativeName in names {
            guard relativeName.identifier == .set, case .constructed(let pairs) = relativeName.content else { return nil }
            for pair in pairs {
                guard pair.identifier == .sequence, case .constructed(let parts) = pair.content else { return nil }
                let typeAndValue = Array(parts)
                guard typeAndValue.count == 2, typeAndValue[0].identifier == .objectIdentifier,
                      case .primitive(let type) = typeAndValue[0].content
                else { return nil }
                attributes.append(NameAttribute(type: type, value: typeAndValue[1]))
            }
        }
        return attributes
    }

    /// The value as text, for the string types of X.520: UTF8String, PrintableString,
    /// IA5String, NumericString and VisibleString as UTF-8 (their characters are ASCII),
    /// TeletexString as ISO Latin-1 (as Apple reads it), BMPString as UTF-16 and
    /// UniversalString as UTF-32, big-endian. Nil for any other type or bytes that do not
    /// decode.
    var text: String? {
        guard case .primitive(let bytes) = value.content else { return nil }
        switch value.identifier {
        case .utf8String, .printableString, .ia5String, .numericString, .visibleString:
            return String(validating: bytes, as: UTF8.self)
        case .teletexString:
            return String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)
        case .bmpString:
            guard bytes.count % 2 == 0 else { return nil }
            let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map {
                UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
            }
            return String(validating: units, as: UTF16.self)
        case .universalString:
            guard bytes.count % 4 == 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            for offset in stride(from: bytes.startIndex, to: bytes.endIndex, by: 4) {
                let value = bytes[offset ..< offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
            }
            return String(scalars)
        default:
            return nil
        }
    }
}
