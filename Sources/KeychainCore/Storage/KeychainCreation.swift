import Foundation

/// What a new keychain is created with.
struct KeychainCreation {
    /// Nil or empty: no password.
    var password: Data?
    var kdf: PasswordKDF
    var settings: KeychainSettings
}
