/// What to do where an unlock cannot reach later processes (no kernel keyring): give every
/// process the keychain's password in a file, which the library reads at the keychain's
/// first use in each process.
enum PasswordFileAdvice {
    static func text(for keychain: String) -> String {
        let name = Substring(keychain.split(separator: "/").last ?? Substring(keychain))
        let bare = ["keychain-db", "keychain"].reduce(name) { name, suffix in
            name.hasSuffix("." + suffix) ? name.dropLast(suffix.count + 1) : name
        }
        let variable = bare == "login" ? "KEYCHAIN_PASSWORD_FILE=<file>, or " : ""
        return "keychainctl: give each process the password in a file of yours (mode 0600 or 0400, not a link): "
            + "\(variable)a file keychain-password.\(bare) in the folder $CREDENTIALS_DIRECTORY names (systemd's "
            + "LoadCredential= sets it; in a container, set it to your secrets' folder, such as /run/secrets)"
    }
}
