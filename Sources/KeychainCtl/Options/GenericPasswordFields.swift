import ArgumentParser
import Foundation
import Security

/// The attribute options of the generic-password subcommands.
struct GenericPasswordFields: PasswordFields {
    static let itemClass = kSecClassGenericPassword as String
    static let noun = "generic-password"
    static let itemName = "a generic password"
    static let serviceName = "service"

    @OptionGroup var shared: SharedPasswordFields

    @Option(name: .customShort("s"), parsing: .unconditional,
            help: ArgumentHelp("The service (kSecAttrService).", valueName: "service"))
    var service: String?

    @Option(name: .customShort("G"), parsing: .unconditional,
            help: ArgumentHelp("The generic attribute (kSecAttrGeneric).", valueName: "generic"))
    var generic: String?

    var given: [String: Any] {
        var attributes = shared.given
        attributes[kSecAttrService as String] = service
        attributes[kSecAttrGeneric as String] = generic
        return attributes
    }

    var newItem: [String: Any] {
        var attributes = given
        attributes[kSecAttrLabel as String] = shared.label ?? service
        return attributes
    }

    var namesItem: Bool { shared.account != nil && service != nil }
}
