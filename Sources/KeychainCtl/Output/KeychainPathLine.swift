import Security

/// A keychain as `list-keychains`, `default-keychain` and `login-keychain` print it: four
/// spaces and its database's path in quotes, as `security` prints SecKeychainGetPath's.
enum KeychainPathLine {
    static func text(_ keychain: SecKeychain) -> String {
        "    \"\(keychain.path)\"\n"
    }
}
