import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The file that holds a keychain's password for a service or a container, so that each of
/// its processes opens the keychain at first use without a prompt and without the kernel
/// keyring (which a container's seccomp profile may refuse).
///
/// - `$CREDENTIALS_DIRECTORY/keychain-password.<name>`: a systemd credential
///   (`LoadCredential=keychain-password.<name>:/path` or `LoadCredentialEncrypted=`), for
///   the keychain `<name>`; `keychain-password` alone is the login keychain's.
/// - `KEYCHAIN_PASSWORD_FILE`: the path of a file (a Docker or Kubernetes secret) holding the
///   login keychain's password.
///
/// The password is read from the file only, never from an environment variable's value,
/// which other programs of the user can read in `/proc`. The file is read as the library's
/// own secret files are (``PrivateFile``): not through a symbolic link, a regular file of
/// this user that no one else may read. One trailing newline is not part of the password
/// (`echo pw > file` writes one).
package struct KeychainPasswordFile: Sendable, Hashable {
    /// The file's path.
    package let path: String
    /// Where its name came from, for messages: `KEYCHAIN_PASSWORD_FILE` or the credential.
    package let origin: String

    static let variable = "KEYCHAIN_PASSWORD_FILE"
    static let credentialsVariable = "CREDENTIALS_DIRECTORY"
    static let credentialPrefix = "keychain-password"
    /// The longest password read; longer is a damaged or wrong file.
    static let sizeLimit = 4096

    /// The password file that applies to the keychain `name`, or nil when none does. A
    /// credential that does not exist is not one; `KEYCHAIN_PASSWORD_FILE` is taken as
    /// given (a missing file is then an error when it is read, not a silent lock).
    package static func applying(toKeychainNamed name: String,
                                 environment: [String: String] = ProcessEnvironment.variables) -> KeychainPasswordFile? {
        if let folder = environment[credentialsVariable], folder.hasPrefix("/") {
            let names = name == "login" ? ["\(credentialPrefix).login", credentialPrefix] : ["\(credentialPrefix).\(name)"]
            for credential in names {
                let path = folder + "/" + credential
                var status = stat()
                if lstat(path, &status) == 0 {
                    return KeychainPasswordFile(path: path, origin: "the systemd credential \(credential)")
                }
            }
        }
        if name == "login", let path = environment[variable], !path.isEmpty {
            return KeychainPasswordFile(path: path, origin: variable)
        }
        return nil
    }

    /// The password. errSecNotAvailable, saying what is wrong with the file and how to
    /// make it right, when it cannot be read as a private file.
    package func read() throws(KeychainError) -> Data {
        guard path.hasPrefix("/") else {
            throw .notAvailable("\(origin) must name a file by its absolute path, not '\(path)'")
        }
        let role = "password file (\(origin))"
        var password: Data
        do throws(KeychainError) {
            guard let read = try PrivateFile.read(path, limit: Self.sizeLimit, role: role) else {
                throw KeychainError.notAvailable("the \(role) \(path) does not exist")
            }
            password = read
        } catch {
            let advice = "a keychain's password file must be a regular file of the user the program runs as, "
                + "not a link, with mode 0400 or 0600"
            throw .notAvailable("\(error.description); \(advice)")
        }
        if password.last == UInt8(ascii: "\n") { password.removeLast() }
        if password.last == UInt8(ascii: "\r") { password.removeLast() }
        guard !password.isEmpty else { throw .notAvailable("the \(role) \(path) is empty") }
        return password
    }
}
