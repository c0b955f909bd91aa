import Foundation
import Security

/// An item as `security` prints it: the keychain, version and class lines, then one line
/// per attribute, `    <tag><format>=<value>`.
///
/// Passwords get the attributes macOS prints for them, in its order (the tag's bytes):
/// the label as `0x00000007`, the alias `0x00000008`, then the four-character codes;
/// `cusi`, `prot`, `scrp` and the alias have no counterpart here and are always `<NULL>`,
/// as are attributes the item does not set. Certificates and keys, which macOS prints
/// with the numeric tags of its older schema, show every attribute they set by its code.
/// The access group, protection class and synchronizable flag are not in the block (macOS
/// shows none of them); `--json` has them.
enum AttributeBlock {
    enum Format: String {
        case blob, uint32, sint32, timedate
    }

    /// One attribute line: the tag as printed and the code whose value it shows.
    struct Field {
        let tag: String
        let code: String?
        let format: Format

        init(_ code: String, _ format: Format) {
            (tag, self.code, self.format) = (SecurityText.buffer(Array(code.utf8)), code, format)
        }

        /// A tag of macOS's certificate schema, which shows the attribute stored under `code`.
        init(tag: String, code: String, _ format: Format) {
            (self.tag, self.code, self.format) = (SecurityText.buffer(Array(tag.utf8)), code, format)
        }

        init(number: UInt32, code: String?, _ format: Format) {
            (tag, self.code, self.format) = (SecurityText.uint32(number), code, format)
        }
    }

    static let genericPassword: [Field] = [
        Field(number: 7, code: "labl", .blob), Field(number: 8, code: nil, .blob),
        Field("acct", .blob), Field("cdat", .timedate), Field("crtr", .uint32), Field("cusi", .sint32),
        Field("desc", .blob), Field("gena", .blob), Field("icmt", .blob), Field("invi", .sint32),
        Field("mdat", .timedate), Field("nega", .sint32), Field("prot", .blob), Field("scrp", .sint32),
        Field("svce", .blob), Field("type", .uint32),
    ]

    static let internetPassword: [Field] = [
        Field(number: 7, code: "labl", .blob), Field(number: 8, code: nil, .blob),
        Field("acct", .blob), Field("atyp", .blob), Field("cdat", .timedate), Field("crtr", .uint32),
        Field("cusi", .sint32), Field("desc", .blob), Field("icmt", .blob), Field("invi", .sint32),
        Field("mdat", .timedate), Field("nega", .sint32), Field("path", .blob), Field("port", .uint32),
        Field("prot", .blob), Field("ptcl", .uint32), Field("scrp", .sint32), Field("sdmn", .blob),
        Field("srvr", .blob), Field("type", .uint32),
    ]

    /// Certificates, under the tags macOS prints (its file keychain's schema), in its order.
    static let certificate: [Field] = [
        Field(tag: "cenc", code: "cenc", .uint32), Field(tag: "ctyp", code: "ctyp", .uint32),
        Field(tag: "hpky", code: "pkhh", .blob), Field(tag: "issu", code: "issr", .blob),
        Field(tag: "labl", code: "labl", .blob), Field(tag: "skid", code: "skid", .blob),
        Field(tag: "snbr", code: "slnr", .blob), Field(tag: "subj", code: "subj", .blob),
    ]

    /// Attributes that belong to the data-protection keychain rather than to the block.
    private static let notShown: Set<String> = ["agrp", "pdmn", "accc", "sync", "tkid", "vwht", "musr"]

    /// The block of one item; with `withData`, its secret follows under `data:`.
    static func text(for item: KeychainItem, keychainPath: String, withData: Bool) -> String {
        var text = "keychain: \(SecurityText.buffer(Array(keychainPath.utf8)))\nversion: 512\n"
        // macOS names the certificate class by its record type number.
        let itemClass = item.itemClass == kSecClassCertificate as String
            ? "0x80001000 " : SecurityText.buffer(Array(item.itemClass.utf8))
        text += "class: \(itemClass)\nattributes:\n"
        for field in fields(for: item) {
            text += "    \(field.tag)<\(field.format.rawValue)>=\(value(field.code.flatMap { item.attributes[$0] }, field.format))\n"
        }
        if withData {
            text += "data:\n\(SecurityText.buffer(item.data ?? Data()))\n"
        }
        return text
    }

    private static func fields(for item: KeychainItem) -> [Field] {
        if item.itemClass == kSecClassGenericPassword as String { return genericPassword }
        if item.itemClass == kSecClassInternetPassword as String { return internetPassword }
        if item.itemClass == kSecClassCertificate as String { return certificate }
        return item.attributes.keys.filter { !notShown.contains($0) }.sorted().map { code in
            Field(code, format(of: item.attributes[code]))
        }
    }

    private static func format(of value: Any?) -> Format {
        switch value {
        case is Date: .timedate
        case is NSNumber: .sint32
        default: .blob
        }
    }

    /// A value as its format prints it; unset and empty values are `<NULL>`.
    private static func value(_ value: Any?, _ format: Format) -> String {
        guard let value else { return "<NULL>" }
        switch format {
        case .timedate:
            guard let date = value as? Date, let bytes = SecurityText.timedate(date) else { return "<NULL>" }
            return SecurityText.buffer(bytes)
        case .uint32, .sint32:
            if let number = value as? NSNumber { return SecurityText.uint32(UInt32(truncatingIfNeeded: number.int64Value)) }
            // A protocol given as Apple's string constant ("htps") is those four bytes.
            let bytes = self.bytes(of: value)
            return bytes.isEmpty ? "<NULL>" : SecurityText.buffer(bytes)
        case .blob:
            let bytes = self.bytes(of: value)
            return bytes.isEmpty ? "<NULL>" : SecurityText.buffer(bytes)
        }
    }

    /// The bytes of a text attribute, given as a string, data or number.
    private static func bytes(of value: Any) -> [UInt8] {
        if let data = value as? Data { return Array(data) }
        if let string = value as? String { return Array(string.utf8) }
        if let number = value as? NSNumber { return Array(number.stringValue.utf8) }
        return []
    }
}
