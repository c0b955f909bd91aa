import Foundation
import Security

/// The keychain a subcommand works on, from its `[keychain]` argument, as `security`'s
/// keychain_open finds it: `SecKeychainOpen` for a name or a path, `SecKeychainCopyDefault`
/// without one.
///
/// - no argument: the default keychain (`login` in `$XDG_DATA_HOME/keychains`, else
///   `~/.local/share/keychains`, or the one `default-keychain -s` chose), created on first
///   use;
/// - a name, `foo`, `foo.keychain` or `foo.keychain-db`: `<folder>/foo.keychain-db`;
/// - a path (anything with a `/`): that file, with `.keychain-db` added when it ends
///   otherwise, as `security` opens `login.keychain` as `login.keychain-db`.
///
/// A keychain named explicitly must exist (errSecNoSuchKeychain otherwise), so that a
/// mistyped name is an error rather than a new, empty keychain; the default keychain is the
/// exception, as it is created on first use.
package struct KeychainLocation {
    let keychain: SecKeychain
    /// The argument as given, for messages.
    let argument: String?

    package init(argument: String?) {
        self.argument = argument.flatMap { $0.isEmpty ? nil : $0 }
        // What SecKeychainOpen and SecKeychainCopyDefault give; they only name a keychain,
        // which ``open()`` then checks.
        keychain = self.argument.map { SecKeychain(path: $0) } ?? SecKeychain.environmentDefault
    }

    /// The database file, as the attribute blocks and `list-keychains` name it.
    package var path: String { keychain.path }

    /// The keychain in prompts and messages: as the user named it, else the default
    /// keychain's path.
    var displayName: String { argument ?? path }

    /// The keychain in an operation's error message: `SecKeychainUnlock work`, or only the
    /// function when no keychain was named.
    func operation(_ function: String) -> String {
        argument.map { "\(function) \($0)" } ?? function
    }

    /// The keychain, once it is known to exist (the default one is created here on first
    /// use): `security`'s keychain_open asks for its status, which a missing keychain has
    /// not.
    @discardableResult
    package func open() throws -> SecKeychain {
        do {
            try keychain.checkAvailable()
        } catch {
            let reason = argument.flatMap(PathDiagnosis.namingFolder) ?? error.reason
            throw ToolFailure.status(error.status, during: "SecKeychainOpen \(displayName)", reason: reason)
        }
        var status: SecKeychainStatus = 0
        try check(SecKeychainGetStatus(keychain, &status), "SecKeychainOpen \(displayName)")
        return keychain
    }

    /// Runs `body` with the SecItem calls of its ``ItemStore`` going to this keychain, as a
    /// caller holding `accessGroups`.
    func run<Result>(accessGroups: [String], _ body: (ItemStore) throws -> Result) throws -> Result {
        let store = ItemStore(keychain: try open())
        var environment = KeychainEnvironment.current
        environment.accessGroups = accessGroups
        do {
            return try KeychainEnvironment.withValue(environment) { try body(store) }
        } catch let failure as ToolFailure {
            throw hinted(failure)
        }
    }

    /// The keychain as `unlock-keychain` takes it: as the user named it, else the default
    /// keychain's name.
    var unlockName: String { argument ?? KeychainEnvironment.current.keychainName }

    /// `failure`, followed by how to unlock the keychain when it says the keychain is locked
    /// (errSecInteractionNotAllowed): macOS would show a dialog; here the user has to know
    /// the command.
    func hinted(_ failure: ToolFailure) -> ToolFailure {
        guard failure.status == errSecInteractionNotAllowed else { return failure }
        let plain = unlockName.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._/-".contains($0)) }
        let quoted = plain ? unlockName : "'" + unlockName.replacingOccurrences(of: "'", with: "'\\''") + "'"
        guard keychain.unlocksReachOtherProcesses else {
            return failure.adding("keychainctl: the keychain \(unlockName) is locked, and an unlock cannot outlive a "
                + "command here: the kernel keyring is unavailable (a container's seccomp policy refuses it).\n"
                + PasswordFileAdvice.text(for: unlockName))
        }
        return failure.adding("keychainctl: the keychain \(unlockName) is locked; unlock it with: "
            + "keychainctl unlock-keychain \(quoted)")
    }
}
