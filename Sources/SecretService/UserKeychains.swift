import Foundation
import KeychainCore
import Security

/// The user's keychain folder, whose keychains are the provider's collections: those
/// `keychainctl list-keychains` shows (``names()``), the default one first, but for one
/// named `session`, whose path is the collection `session` (``SessionCollection``).
///
/// The default keychain is read from the folder at each call (`SecKeychainCopyDefault`
/// of this folder), so that `keychainctl default-keychain -s` is followed at once.
struct UserKeychains: Sendable {
    /// The folder and the provider's access groups; its keychain name is not used (see
    /// ``defaultName()``).
    let environment: KeychainEnvironment

    /// The process's keychain folder and groups (``KeychainEnvironment/process``), with
    /// keychainctl's group added, so that items the user added with keychainctl are found by
    /// Secret Service clients (keychainctl sees every group, so the reverse holds too).
    static func forThisProcess() -> UserKeychains {
        var environment = KeychainEnvironment.process
        if !environment.accessGroups.contains("keychainctl") { environment.accessGroups.append("keychainctl") }
        return UserKeychains(environment: environment)
    }

    /// The environment with the default keychain of now.
    private var current: KeychainEnvironment {
        var environment = environment
        environment.keychainName = KeychainEnvironment.defaultKeychainName(in: environment.directory)
        return environment
    }

    /// The default keychain's name: `login` unless `SetAlias` or `keychainctl default-keychain -s`
    /// chose another.
    func defaultName() -> String { current.keychainName }

    /// Every keychain's name, the default first (even before its first use creates it), then
    /// the others in the folder, by name.
    func names() -> [String] {
        var list: CFArray?
        let environment = current
        KeychainEnvironment.withValue(environment) { _ = SecKeychainCopySearchList(&list) }
        let found = (list as? [SecKeychain] ?? []).map(\.files.name).filter { $0 != SessionCollection.name }
        return found.isEmpty ? [environment.keychainName] : found
    }

    /// Whether `name` is a collection now: the default keychain, or one in the folder.
    func exists(_ name: String) -> Bool {
        guard name != SessionCollection.name else { return false }
        return name == defaultName() || KeychainStore.exists(KeychainFiles(directory: environment.directory, name: name))
    }

    /// The items of the keychain `name`, which must be a collection (NoSuchObject otherwise).
    func items(in name: String) throws(BusFailure) -> KeychainItems {
        let environment = current
        // A keychain named like the session collection is not a collection: that path is the session's.
        guard name != SessionCollection.name else { throw .noSuchObject(SecretObject.collectionPath(name)) }
        guard name == environment.keychainName
                || KeychainStore.exists(KeychainFiles(directory: environment.directory, name: name)) else {
            throw .noSuchObject(SecretObject.collectionPath(name))
        }
        return KeychainItems(environment: environment, name: name)
    }

    /// The items of the default keychain.
    func defaultItems() -> KeychainItems {
        let environment = current
        return KeychainItems(environment: environment, name: environment.keychainName)
    }

    /// Makes the keychain `name` the default, for this user's processes from now on; nil
    /// makes `login` the default again, as it is when none was chosen.
    func setDefault(_ name: String?) throws(BusFailure) {
        if let name, !exists(name) { throw .noSuchObject(SecretObject.collectionPath(name)) }
        let keychain = name.map { SecKeychain(files: KeychainFiles(directory: environment.directory, name: $0)) }
        let status = KeychainEnvironment.withValue(current) { SecKeychainSetDefault(keychain) }
        guard status == errSecSuccess else {
            throw .failed("cannot make \(name ?? "login") the default keychain (\(status))")
        }
    }

    /// The aliases clients set, kept in this folder.
    var aliases: CollectionAliases { CollectionAliases(directory: environment.directory) }

    /// Creates a keychain for a collection labelled `label`, with `password` (none when
    /// empty), unlocked, its label kept with it; its name: the label's letters, digits, `.`,
    /// `-` and `_` (others as `_`), numbered after a `-` when that keychain exists already.
    func create(labelled label: String, password: [UInt8]) -> Result<String, PromptFailure> {
        let base = Self.name(forLabel: label)
        for number in 1...1000 {
            let name = number == 1 ? base : "\(base)-\(number)"
            if name == SessionCollection.name { continue }
            let files = KeychainFiles(directory: environment.directory, name: name)
            guard !KeychainStore.exists(files) else { continue }
            let status = password.withUnsafeBytes { bytes in
                KeychainEnvironment.withValue(current) {
                    var created: SecKeychain?
                    return SecKeychainCreate(files.database.path, UInt32(bytes.count), bytes.baseAddress, false, nil,
                                             &created)
                }
            }
            if status == errSecDuplicateKeychain { continue }
            guard status == errSecSuccess else {
                return .failure(.failed("cannot create the keychain \(name) (OSStatus \(status))"))
            }
            do throws(KeychainError) {
                if !label.isEmpty { try KeychainStore.shared(files).setLabel(label) }
            } catch {
                return .failure(.failed("the keychain \(name) was created but its label could not be set: \(error)"))
            }
            return .success(name)
        }
        return .failure(.failed("every keychain name for the label is taken"))
    }

    /// Deletes the keychain `name` and every item in it.
    func delete(_ name: String) throws(BusFailure) {
        let keychain = SecKeychain(files: KeychainFiles(directory: environment.directory, name: name))
        let status = KeychainEnvironment.withValue(current) { SecKeychainDelete(keychain) }
        if status == errSecNoSuchKeychain { throw .noSuchObject(SecretObject.collectionPath(name)) }
        guard status == errSecSuccess else { throw .failed("cannot delete the keychain \(name) (OSStatus \(status))") }
    }

    /// A keychain name made of `label`: at most 64 bytes of letters, digits, `.`, `-` and
    /// `_`, not starting with `.`; `collection` for a label with none of those.
    static func name(forLabel label: String) -> String {
        var name = String(label.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                               || scalar == "." || scalar == "-" || scalar == "_")
                ? Character(scalar) : "_"
        }.prefix(64))
        while name.hasPrefix(".") { name.removeFirst() }
        return name.allSatisfy({ $0 == "_" }) ? "collection" : name
    }
}
