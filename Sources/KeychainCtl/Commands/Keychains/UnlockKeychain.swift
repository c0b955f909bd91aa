import ArgumentParser
import Foundation
import Security

/// `unlock-keychain`: opens a keychain's protected items for every process of this user.
struct UnlockKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock-keychain",
        abstract: "Unlock a keychain.",
        discussion: """
            Without -p or --password-stdin, the password is asked for without echo (password to \
            unlock <keychain>: ). The keychain then stays unlocked for every process of this user \
            until lock-keychain, its auto-lock settings or a reboot lock it. A wrong password is \
            errSecAuthFailed (exit status 51). Where the kernel keyring is unavailable (a \
            container's seccomp policy refuses it), an unlock cannot outlive the command: it \
            fails (exit status 1) and says how to give the password to each process in a file \
            instead (KEYCHAIN_PASSWORD_FILE, or the systemd credential keychain-password.<name>).
            """)

    @OptionGroup var password: KeychainPasswordOptions

    @Flag(name: .customShort("u"),
          help: "Do not use a password: unlocks a keychain that has none (macOS would show a dialog for one that has).")
    var withoutPassword = false

    @OptionGroup var keychain: KeychainArgument

    func validate() throws {
        if withoutPassword, password.isGiven {
            throw ValidationError("-u unlocks without a password: leave out -p and --password-stdin.")
        }
    }

    func run() throws {
        let location = keychain.location
        let keychainRef = try location.open()
        let secret = withoutPassword ? Data()
            : try password.given() ?? PasswordPrompt.password("password to unlock \(location.displayName): ")
        let status = secret.withUnsafeBytes { bytes in
            SecKeychainUnlock(keychainRef, UInt32(bytes.count), bytes.baseAddress, !withoutPassword)
        }
        try check(status, location.operation("SecKeychainUnlock"))
        // The unlock is for the processes that follow: where it cannot reach them, saying
        // success would leave the user to find the keychain locked at the next command.
        guard keychainRef.unlockReachesOtherProcesses else {
            throw ToolFailure.other(
                "\(location.operation("SecKeychainUnlock")): the password is right, but the unlock cannot outlive "
                    + "this command: the kernel keyring is unavailable here (a container's seccomp policy refuses it, "
                    + "or KEYCHAIN_NO_KERNEL_KEYRING is set), so the next command finds the keychain locked again.\n"
                    + PasswordFileAdvice.text(for: location.unlockName))
        }
    }
}
