import ArgumentParser
import Foundation
import Security

/// `set-keychain-password`: sets, changes or removes a keychain's password.
struct SetKeychainPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-keychain-password",
        abstract: "Set, change or remove a keychain's password.",
        discussion: """
            What -o and -p do not give is asked for without echo, as macOS asks: Old Password: , \
            then New Password: and Retype New Password: (three tries). A keychain without a \
            password has an empty old one. A wrong old password is errSecAuthFailed (exit status \
            51) and changes nothing. The keychain is unlocked afterwards.

            An empty new password removes the password, and with it every item that needs one: \
            the keychain's kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly (akpu) items are \
            deleted, as iOS deletes them when the passcode is removed.
            """)

    @Option(name: .customShort("o"), parsing: .unconditional,
            help: ArgumentHelp("The old password.", valueName: "oldPassword"))
    var oldPassword: String?

    @Option(name: .customShort("p"), parsing: .unconditional,
            help: ArgumentHelp("The new password; empty removes it (see above).",
                               discussion: "Anything on the command line shows in `ps`: prefer the prompts.",
                               valueName: "newPassword"))
    var newPassword: String?

    @OptionGroup var keychain: KeychainArgument

    func run() throws {
        let location = keychain.location
        let keychainRef = try location.open()
        let old = try oldPassword.map { Data($0.utf8) } ?? PasswordPrompt.password("Old Password: ")
        let new = try newPassword.map { Data($0.utf8) }
            ?? PasswordPrompt.newPassword("New Password: ", retype: "Retype New Password: ")
        let status = old.withUnsafeBytes { oldBytes in
            new.withUnsafeBytes { newBytes in
                SecKeychainChangePassword(keychainRef, UInt32(oldBytes.count), oldBytes.baseAddress,
                                          UInt32(newBytes.count), newBytes.baseAddress)
            }
        }
        try check(status, location.operation("SecKeychainChangePassword"))
    }
}
