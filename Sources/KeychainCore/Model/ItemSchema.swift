/// The attributes an item class has and the ones that make up its primary key (those that
/// make a second add of the same values errSecDuplicateItem).
package struct ItemSchema: Sendable {
    package let itemClass: ItemClass
    /// Every attribute the class accepts, by code; any other code is errSecNoSuchAttr.
    package let attributes: [String: Attribute]
    /// The class attributes of the primary key, in a fixed order. The access group and the
    /// synchronizable flag belong to every key as well.
    package let primaryKey: [Attribute]
    /// What an item's identity hash covers: the primary key, the access group and the
    /// synchronizable flag.
    let identityFields: [Attribute]

    /// Looks up an attribute of this class.
    package func attribute(_ code: String) throws(KeychainError) -> Attribute {
        guard let attribute = attributes[code] else { throw .noSuchAttribute(code) }
        return attribute
    }

    static func of(_ itemClass: ItemClass) -> ItemSchema {
        switch itemClass {
        case .genericPassword: genericPassword
        case .internetPassword: internetPassword
        case .certificate: certificate
        case .key: key
        case .identity: identity
        }
    }

    package static let accessGroup = Attribute("agrp", .accessGroup)
    package static let accessible = Attribute("pdmn", .accessibility)
    package static let synchronizable = Attribute("sync", .synchronizable)
    package static let creationDate = Attribute("cdat", .date)
    package static let modificationDate = Attribute("mdat", .date)
    package static let account = Attribute("acct", .text)
    package static let service = Attribute("svce", .text)
    package static let server = Attribute("srvr", .text)
    package static let accessControl = Attribute("accc", .accessControl)

    private static let common: [Attribute] = [
        accessGroup, accessible, synchronizable, creationDate, modificationDate,
        accessControl, Attribute("nleg", .ignored),
        Attribute("labl", .text), Attribute("tkid", .text), Attribute("vwht", .text),
    ]
    private static let password: [Attribute] = common + [
        account, Attribute("desc", .text), Attribute("icmt", .text), Attribute("crtr", .number),
        Attribute("type", .number), Attribute("invi", .number), Attribute("nega", .number),
    ]
    private static let certificateOnly: [Attribute] = [
        Attribute("ctyp", .number), Attribute("cenc", .number), Attribute("subj", .data),
        Attribute("issr", .data), Attribute("slnr", .data), Attribute("skid", .data),
        Attribute("pkhh", .data),
    ]
    private static let keyOnly: [Attribute] = [
        Attribute("kcls", .number), Attribute("klbl", .data), Attribute("atag", .text),
        Attribute("crtr", .number), Attribute("type", .number), Attribute("bsiz", .number),
        Attribute("esiz", .number), Attribute("sdat", .date), Attribute("edat", .date),
        Attribute("perm", .number), Attribute("encr", .number), Attribute("decr", .number),
        Attribute("drve", .number), Attribute("sign", .number), Attribute("vrfy", .number),
        Attribute("wrap", .number), Attribute("unwp", .number), Attribute("sens", .number),
        Attribute("extr", .number),
    ]

    private static func make(_ itemClass: ItemClass, _ attributes: [Attribute], key: [String]) -> ItemSchema {
        let byCode = Dictionary(attributes.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        let primaryKey = key.map { byCode[$0]! }
        return ItemSchema(itemClass: itemClass, attributes: byCode, primaryKey: primaryKey,
                          identityFields: primaryKey + [accessGroup, synchronizable])
    }

    private static let genericPassword = make(
        .genericPassword, password + [service, Attribute("gena", .text)], key: ["acct", "svce"])
    private static let internetPassword = make(
        .internetPassword,
        password + [
            Attribute("sdmn", .text), server, Attribute("ptcl", .number), Attribute("atyp", .text),
            Attribute("port", .number), Attribute("path", .text),
        ],
        key: ["acct", "sdmn", "srvr", "ptcl", "atyp", "port", "path"])
    private static let certificate = make(
        .certificate, common + certificateOnly, key: ["ctyp", "issr", "slnr"])
    private static let key = make(
        .key, common + keyOnly,
        key: ["kcls", "klbl", "atag", "crtr", "type", "bsiz", "esiz", "sdat", "edat"])
    private static let identity = make(.identity, common + certificateOnly + keyOnly, key: [])
}
