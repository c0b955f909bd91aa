import ArgumentParser
import Foundation
import Security

/// The attribute options of the internet-password subcommands.
///
/// As `security` does, a new item always has a port, a protocol (0 when not given) and an
/// authentication type (`dflt`).
struct InternetPasswordFields: PasswordFields {
    static let itemClass = kSecClassInternetPassword as String
    static let noun = "internet-password"
    static let itemName = "an internet password"
    static let serviceName = "server"

    @Option(name: .customShort("a"), parsing: .unconditional, help: SharedPasswordOption.account)
    var account: String?

    @Option(name: .customShort("l"), parsing: .unconditional, help: SharedPasswordOption.label)
    var label: String?

    @Option(name: .customShort("j"), parsing: .unconditional, help: SharedPasswordOption.comment)
    var comment: String?

    @Option(name: .customShort("D"), parsing: .unconditional, help: SharedPasswordOption.kind)
    var kind: String?

    @Option(name: .customShort("c"), parsing: .unconditional, help: SharedPasswordOption.creator)
    var creator: FourCharCode?

    @Option(name: .customShort("C"), parsing: .unconditional, help: SharedPasswordOption.type)
    var type: FourCharCode?

    @Option(name: .customShort("s"), parsing: .unconditional,
            help: ArgumentHelp("The server (kSecAttrServer).", valueName: "server"))
    var server: String?

    @Option(name: .customShort("d"), parsing: .unconditional,
            help: ArgumentHelp("The security domain (kSecAttrSecurityDomain).", valueName: "domain"))
    var domain: String?

    @Option(name: .customShort("p"), parsing: .unconditional,
            help: ArgumentHelp("The path (kSecAttrPath).", valueName: "path"))
    var path: String?

    @Option(name: .customShort("P"), parsing: .unconditional,
            help: ArgumentHelp("The port (kSecAttrPort).", valueName: "port"))
    var port: UInt16?

    @Option(name: .customShort("r"), parsing: .unconditional,
            help: ArgumentHelp("The protocol, a four-character code such as htps (kSecAttrProtocol).",
                               valueName: "protocol"))
    var `protocol`: FourCharCode?

    @Option(name: .customShort("t"), parsing: .unconditional,
            help: ArgumentHelp(
                "The authentication type, a four-character code such as dflt (kSecAttrAuthenticationType); an added item's defaults to dflt.",
                valueName: "authtype"))
    var authenticationType: FourCharCode?

    var given: [String: Any] {
        var attributes = sharedGiven
        attributes[kSecAttrServer as String] = server
        attributes[kSecAttrSecurityDomain as String] = domain
        attributes[kSecAttrPath as String] = path
        attributes[kSecAttrPort as String] = port.map { NSNumber(value: $0) }
        // Apple's protocol and authentication-type constants are strings ("htps", "dflt").
        attributes[kSecAttrProtocol as String] = `protocol`?.text
        attributes[kSecAttrAuthenticationType as String] = authenticationType?.text
        return attributes
    }

    var newItem: [String: Any] {
        var attributes = given
        attributes[kSecAttrLabel as String] = label ?? server
        attributes[kSecAttrPort as String] = NSNumber(value: port ?? 0)
        attributes[kSecAttrProtocol as String] = `protocol`?.text ?? NSNumber(value: 0)
        attributes[kSecAttrAuthenticationType as String] = authenticationType?.text ?? "dflt"
        return attributes
    }

    var namesItem: Bool { account != nil && server != nil }
}
