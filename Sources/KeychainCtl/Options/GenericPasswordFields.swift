import ArgumentParser
import Foundation
import Security

/// The attribute options of the generic-password subcommands.
struct GenericPasswordFields: PasswordFields {
    static let itemClass = kSecClassGenericPassword as String
    static let noun = "generic-password"
    static let itemName = "a generic password"
    static let serviceName = "service"

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
            help: ArgumentHelp("The service (kSecAttrService).", valueName: "service"))
    var service: String?

    @Option(name: .customShort("G"), parsing: .unconditional,
            help: ArgumentHelp("The generic attribute (kSecAttrGeneric).", valueName: "generic"))
    var generic: String?

    var given: [String: Any] {
        var attributes = sharedGiven
        attributes[kSecAttrService as String] = service
        attributes[kSecAttrGeneric as String] = generic
        return attributes
    }

    var newItem: [String: Any] {
        var attributes = given
        attributes[kSecAttrLabel as String] = label ?? service
        return attributes
    }

    var namesItem: Bool { account != nil && service != nil }
}
