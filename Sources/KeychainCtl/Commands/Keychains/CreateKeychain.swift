import ArgumentParser
import Foundation
import Security

/// `create-keychain`: new keychains, all with the one password given or asked for.
struct CreateKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-keychain",
        abstract: "Create keychains.",
        discussion: """
            A name is a keychain in $XDG_DATA_HOME/keychains (work, work.keychain or \
            work.keychain-db); a path (anything with a /) names the file. Without -p or \
            --password-stdin, the password is asked for twice without echo (password for new \
            keychain: , retype password for new keychain: ; three tries). An empty password \
            makes a keychain without one, which unlocks itself at its first use. A keychain that \
            exists already is an error (errSecDuplicateKeychain, exit status 48). A new keychain \
            is unlocked. Missing folders of a path are created (mode 0700); when the keychain \
            cannot be created, the error says what is wrong with the path (a missing folder \
            that cannot be made, a file where a folder should be, a folder you may not write in); \
            a path that names a folder is refused (errSecNotAvailable, exit status 53).
            """)

    @Flag(name: .customShort("P"),
          help: "Ask for the password: macOS shows a dialog, keychainctl the terminal prompt, as without -p.")
    var prompt = false

    @OptionGroup var password: KeychainPasswordOptions

    @Argument(help: ArgumentHelp("A keychain to create: a name in $XDG_DATA_HOME/keychains or a path.",
                                 valueName: "keychain"))
    var names: [String]

    func validate() throws {
        if prompt, password.isGiven {
            throw ValidationError("-P asks for the password: leave out -p and --password-stdin.")
        }
        if names.contains(where: \.isEmpty) {
            throw ValidationError("A keychain's name cannot be empty.")
        }
    }

    func run() throws {
        let secret = try password.given()
            ?? PasswordPrompt.newPassword("password for new keychain: ", retype: "retype password for new keychain: ")
        for name in names {
            if let folder = PathDiagnosis.namingFolder(name) {
                throw ToolFailure.status(errSecNotAvailable, during: "SecKeychainCreate \(name)", reason: folder)
            }
            var created: SecKeychain?
            let status = secret.withUnsafeBytes { bytes in
                SecKeychainCreate(name, UInt32(bytes.count), bytes.baseAddress, false, nil, &created)
            }
            guard status == errSecSuccess else {
                // The status alone (errSecNotAvailable, "You may need to restart your
                // computer") does not say what is wrong with the path.
                let reason = status == errSecDuplicateKeychain ? nil
                    : PathDiagnosis.creating(KeychainLocation(argument: name).path, createsFolders: true)
                throw ToolFailure.status(status, during: "SecKeychainCreate \(name)", reason: reason)
            }
            // Created, and unlocked for this command only: say so rather than let the next
            // command find it locked without a word.
            if !secret.isEmpty, let created, !created.unlockReachesOtherProcesses {
                ConsoleOutput.error("keychainctl: \(name) is created, and locked for the commands that follow: the kernel "
                    + "keyring is unavailable here (a container's seccomp policy refuses it), so no unlock outlives a "
                    + "command.\n" + PasswordFileAdvice.text(for: name))
            }
        }
    }
}
