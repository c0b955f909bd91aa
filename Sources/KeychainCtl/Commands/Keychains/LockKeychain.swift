import ArgumentParser
import Security

/// `lock-keychain`: closes a keychain's protected items, or every keychain's, for every
/// process of this user.
struct LockKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock-keychain",
        abstract: "Lock a keychain, or every keychain.",
        discussion: """
            Until it is unlocked, the keychain's items of the default accessibility \
            (kSecAttrAccessibleWhenUnlocked) give errSecInteractionNotAllowed (exit status 36) in \
            every process of this user; AfterFirstUnlock and Always items stay readable. A keychain \
            without a password is unlocked again with unlock-keychain and an empty password.
            """)

    @Flag(name: .customShort("a"), help: "Lock every keychain in $XDG_DATA_HOME/keychains.")
    var all = false

    @OptionGroup var keychain: KeychainArgument

    func validate() throws {
        if all, keychain.keychain != nil {
            throw ValidationError("-a locks every keychain: name none.")
        }
    }

    func run() throws {
        if all {
            try check(SecKeychainLockAll(), "SecKeychainLockAll")
            return
        }
        let location = keychain.location
        try check(SecKeychainLock(try location.open()), location.operation("SecKeychainLock"))
    }
}
