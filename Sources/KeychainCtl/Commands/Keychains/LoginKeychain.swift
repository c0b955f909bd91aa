import ArgumentParser
import Security

/// `login-keychain`: the login keychain, which is the default one unless `default-keychain -s`
/// chose another.
struct LoginKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-keychain",
        abstract: "Show the login keychain.",
        discussion: """
            Prints the path of login.keychain-db in $XDG_DATA_HOME/keychains, the keychain created \
            on first use. Created without a password, it unlocks itself at its first use; once \
            set-keychain-password gives it one, unlock-keychain opens it. Where the PAM module \
            pam_keychain is installed, your first login creates it with your login password, each \
            login unlocks it, and the end of that session locks it.
            """)

    func run() throws {
        var login: SecKeychain?
        try check(SecKeychainOpen("login", &login), "SecKeychainOpen login")
        ConsoleOutput.write(login.map(KeychainPathLine.text) ?? "")
    }
}
