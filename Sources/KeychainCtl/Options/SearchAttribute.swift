import Foundation
import Security

/// An attribute `search` compares, as given on its command line: `name=value`, the name a
/// word (`account`) or the four-character code the attribute blocks show (`acct`).
struct SearchAttribute {
    /// What a value is, and so how it is read from the command line.
    enum Kind {
        /// Text, as given.
        case text
        /// A port: a number from 0 to 65535.
        case port
        /// A four-character code held as a number (creator, type).
        case codeNumber
        /// A four-character code held as text (protocol, authentication type).
        case codeText
    }

    /// One attribute that can be searched for.
    struct Definition {
        let name: String
        let code: String
        let key: String
        let kind: Kind
        /// The item classes that have it.
        let classes: [String]
    }

    private static let generic = kSecClassGenericPassword as String
    private static let internet = kSecClassInternetPassword as String

    /// Every attribute `search` takes, with the option of find-*-password that sets it.
    static let definitions: [Definition] = [
        Definition(name: "account", code: "acct", key: kSecAttrAccount as String, kind: .text, classes: [generic, internet]),
        Definition(name: "service", code: "svce", key: kSecAttrService as String, kind: .text, classes: [generic]),
        Definition(name: "server", code: "srvr", key: kSecAttrServer as String, kind: .text, classes: [internet]),
        Definition(name: "label", code: "labl", key: kSecAttrLabel as String, kind: .text, classes: [generic, internet]),
        Definition(name: "comment", code: "icmt", key: kSecAttrComment as String, kind: .text, classes: [generic, internet]),
        Definition(name: "kind", code: "desc", key: kSecAttrDescription as String, kind: .text, classes: [generic, internet]),
        Definition(name: "generic", code: "gena", key: kSecAttrGeneric as String, kind: .text, classes: [generic]),
        Definition(name: "creator", code: "crtr", key: kSecAttrCreator as String, kind: .codeNumber,
                   classes: [generic, internet]),
        Definition(name: "type", code: "type", key: kSecAttrType as String, kind: .codeNumber, classes: [generic, internet]),
        Definition(name: "domain", code: "sdmn", key: kSecAttrSecurityDomain as String, kind: .text, classes: [internet]),
        Definition(name: "path", code: "path", key: kSecAttrPath as String, kind: .text, classes: [internet]),
        Definition(name: "port", code: "port", key: kSecAttrPort as String, kind: .port, classes: [internet]),
        Definition(name: "protocol", code: "ptcl", key: kSecAttrProtocol as String, kind: .codeText, classes: [internet]),
        Definition(name: "authtype", code: "atyp", key: kSecAttrAuthenticationType as String, kind: .codeText,
                   classes: [internet]),
    ]

    let definition: Definition
    /// The value as the query takes it.
    let value: Any

    /// Reads `name=value`; an error that says what is wrong with it.
    init(parsing argument: String) throws(SearchAttributeError) {
        guard let equals = argument.firstIndex(of: "=") else { throw .notAPair(argument) }
        let name = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        guard let definition = Self.definitions.first(where: { $0.name == name || $0.code == name }) else {
            throw .unknownName(name)
        }
        self.definition = definition
        switch definition.kind {
        case .text:
            value = text
        case .port:
            guard let port = UInt16(text) else { throw .badValue(argument, "a port is a number from 0 to 65535") }
            value = NSNumber(value: port)
        case .codeNumber, .codeText:
            guard let code = FourCharCode(argument: text) else {
                let example = ["protocol": "htps", "authtype": "dflt"][definition.name] ?? "aapl"
                throw .badValue(argument, "\(definition.name) is a four-character code, such as \(example)")
            }
            value = definition.kind == .codeNumber ? code.number : code.text
        }
    }
}

/// Why a `search` argument is not an attribute to compare.
enum SearchAttributeError: Error, CustomStringConvertible {
    case notAPair(String)
    case unknownName(String)
    case badValue(String, String)

    var description: String {
        switch self {
        case .notAPair(let argument):
            "'\(argument)' is not name=value, such as service=example.com"
        case .unknownName(let name):
            "'\(name)' is not an attribute search knows; it takes "
                + SearchAttribute.definitions.map(\.name).joined(separator: ", ")
                + " (or their four-character codes)"
        case .badValue(let argument, let reason):
            "'\(argument)': \(reason)"
        }
    }
}
