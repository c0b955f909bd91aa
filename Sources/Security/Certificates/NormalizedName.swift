import SwiftASN1

/// A distinguished name normalized as Apple normalizes names for matching (RFC 5280's rules
/// for PrintableString, section 7.1): in each PrintableString value, lowercase ASCII letters
/// become uppercase, leading and trailing spaces and tabs are dropped, and each run of them
/// inside becomes one space. Everything else (other string types, the order of attributes
/// and of names) stays as encoded, and the lengths are re-encoded to fit.
enum NormalizedName {
    /// The normalized DER encoding of `name`, a SEQUENCE; nil if it is not a well-formed Name.
    static func encoding(of name: ASN1Node) -> [UInt8]? {
        guard NameAttribute.all(in: name) != nil, case .constructed(let relativeNames) = name.content,
              // Apple refuses a name with an empty relative distinguished name.
              relativeNames.allSatisfy({ if case .constructed(let pairs) = $0.content { pairs.contains { _ in true } } else { false } })
        else { return nil }
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .sequence) { names in
            for relativeName in relativeNames {
                guard case .constructed(let pairs) = relativeName.content else { continue }
                names.appendConstructedNode(identifier: .set) { set in
                    for pair in pairs {
                        guard case .constructed(let parts) = pair.content else { continue }
                        set.appendConstructedNode(identifier: .sequence) { typeAndValue in
                            for part in parts {
                                if part.identifier == .printableString, case .primitive(let text) = part.content {
                                    typeAndValue.appendPrimitiveNode(identifier: .printableString) {
                                        $0.append(contentsOf: normalized(text))
                                    }
                                } else {
                                    typeAndValue.serializeRawBytes(part.encodedBytes)
                                }
                            }
                        }
                    }
                }
            }
        }
        return serializer.serializedBytes
    }

    /// A PrintableString's bytes uppercased with blanks folded.
    static func normalized(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var pendingBlank = false
        for byte in text {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pendingBlank = !result.isEmpty
                continue
            }
            if pendingBlank { result.append(UInt8(ascii: " ")) }
            pendingBlank = false
            result.append(UInt8(ascii: "a") <= byte && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte)
        }
        return result
    }
}
