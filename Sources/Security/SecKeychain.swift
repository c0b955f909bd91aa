import Foundation
@_implementationOnly import KeychainCore
#if canImport(Glibc)
import Glibc
#endif

/// A keychain: one encrypted database under `$XDG_DATA_HOME/keychains` (or elsewhere), as
/// `SecKeychainCreate`, `SecKeychainOpen` and `SecKeychainCopyDefault` give it. Pass it as
/// `kSecUseKeychain` in a query to use it instead of the default keychain.
public final class SecKeychain: Sendable, Hashable, CustomStringConvertible {
    /// The keychain's files: its folder and name.
    package let files: KeychainFiles

    package init(files: KeychainFiles) {
        self.files = files
    }

    /// A keychain named by a path, as `SecKeychainCreate` and `SecKeychainOpen` take one: a
    /// bare name (`work`, `work.keychain`, `work.keychain-db`) is in `directory`; a path
    /// names the database file itself.
    public convenience init(path: String, directory: URL = KeychainEnvironment.current.directory) {
        self.init(files: KeychainFiles(path: path, directory: directory))
    }

    /// The default keychain of the current ``KeychainEnvironment``, as
    /// `SecKeychainCopyDefault` gives it.
    package static var environmentDefault: SecKeychain { SecKeychain(files: KeychainEnvironment.current.files) }

    /// The database's path.
    public var path: String { files.database.path }

    public var description: String { "<SecKeychain \(path)>" }

    public static func == (lhs: SecKeychain, rhs: SecKeychain) -> Bool { lhs.files == rhs.files }
    public func hash(into hasher: inout Hasher) { hasher.combine(files) }

    /// Whether this process's unlock of the keychain reaches the user's other processes
    /// (through the kernel keyring), rather than lasting for this process only. For
    /// `keychainctl unlock-keychain`, whose unlock is for the processes that follow it.
    package var unlockReachesOtherProcesses: Bool { (try? store().unlockReachesOtherProcesses) ?? false }

    /// Whether an unlock made now would reach the user's other processes: false where the
    /// kernel keyring is refused (a container's seccomp policy) or turned off.
    package var unlocksReachOtherProcesses: Bool { (try? store().unlocksReachOtherProcesses) ?? false }

    /// The store, which must exist (errSecNoSuchKeychain otherwise), except the default
    /// keychain of the environment, which is created on first use as the login keychain is.
    package func store() throws(KeychainError) -> KeychainStore {
        try KeychainStore.shared(files, create: files == KeychainEnvironment.current.files)
    }
}

/// Access rights of a keychain on macOS. Linux has none beyond file permissions: pass nil.
public final class SecAccess: Sendable {
    private init() {}
}

/// The bits of `SecKeychainGetStatus`.
public typealias SecKeychainStatus = UInt32
/// The keychain is unlocked.
public let kSecUnlockStateStatus: SecKeychainStatus = 1
/// The keychain can be read.
public let kSecReadPermStatus: SecKeychainStatus = 2
/// The keychain can be written.
public let kSecWritePermStatus: SecKeychainStatus = 4

// MARK: - Creating, opening, deleting

/// Creates a keychain at `pathName` (a name in the keychains folder, or a path), with the
/// password given, or none when `passwordLength` is 0, and leaves it unlocked.
///
/// `promptUser` would ask for the password in a dialog on macOS; a library on Linux cannot,
/// so it gives errSecInteractionNotAllowed. `initialAccess` is ignored (pass nil).
/// errSecDuplicateKeychain when the keychain exists; errSecNotAvailable for a path that
/// names a folder.
@discardableResult
public func SecKeychainCreate(
    _ pathName: UnsafePointer<CChar>, _ passwordLength: UInt32, _ password: UnsafeRawPointer?,
    _ promptUser: Bool, _ initialAccess: SecAccess?, _ keychain: UnsafeMutablePointer<SecKeychain?>
) -> OSStatus {
    keychainCall {
        guard !promptUser else { throw KeychainError.interactionNotAllowed }
        let path = String(cString: pathName)
        // A folder's path would otherwise become `<folder>.keychain-db` beside the folder.
        var status = stat()
        if path.contains("/"), stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw KeychainError.notAvailable("\(path) is a folder; a keychain is a file: name one in it")
        }
        let created = SecKeychain(path: path)
        _ = try KeychainStore.create(created.files, password: passwordBytes(password, passwordLength))
        keychain.pointee = created
    }
}

/// Opens a keychain by name or path. It need not exist yet: calls that use it then give
/// errSecNoSuchKeychain, as on macOS.
@discardableResult
public func SecKeychainOpen(_ pathName: UnsafePointer<CChar>, _ keychain: UnsafeMutablePointer<SecKeychain?>) -> OSStatus {
    keychain.pointee = SecKeychain(path: String(cString: pathName))
    return errSecSuccess
}

/// The default keychain: the one `SecItem` calls use without `kSecUseKeychain` (`login`
/// unless `SecKeychainSetDefault` chose another).
@discardableResult
public func SecKeychainCopyDefault(_ keychain: UnsafeMutablePointer<SecKeychain?>) -> OSStatus {
    keychain.pointee = SecKeychain.environmentDefault
    return errSecSuccess
}

/// Makes `keychain` the default for this user's processes from now on (nil: back to
/// `login`), recorded in the keychains folder.
@discardableResult
public func SecKeychainSetDefault(_ keychain: SecKeychain?) -> OSStatus {
    keychainCall {
        let environment = KeychainEnvironment.current
        if let keychain, keychain.files.directory.standardizedFileURL != environment.directory.standardizedFileURL {
            throw KeychainError.param("the default keychain must be in \(environment.directory.path)")
        }
        try KeychainEnvironment.setDefaultKeychainName(keychain?.files.name, in: environment.directory)
    }
}

/// The keychains `SecItem` calls can be pointed at, as `security list-keychains` shows them:
/// the default keychain first (even before its first use creates it), then every other
/// keychain in the keychains folder, by name. An array of `SecKeychain`.
@discardableResult
public func SecKeychainCopySearchList(_ searchList: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    let environment = KeychainEnvironment.current
    let others = keychainsInFolder(environment.directory).filter { $0 != environment.files }
    searchList.pointee = ([environment.files] + others).map(SecKeychain.init(files:)) as CFArray
    return errSecSuccess
}

/// Deletes a keychain's files. errSecNoSuchKeychain when it does not exist.
@discardableResult
public func SecKeychainDelete(_ keychainOrArray: SecKeychain?) -> OSStatus {
    keychainCall {
        guard let keychainOrArray else { throw KeychainError.param("no keychain to delete") }
        try KeychainStore.delete(keychainOrArray.files)
    }
}

/// Copies the keychain's database path, NUL-terminated, into `pathName`, whose capacity
/// `ioPathLength` gives; on return it holds the path's length. errSecBufferTooSmall is not
/// in this API: a short buffer gives errSecParam.
@discardableResult
public func SecKeychainGetPath(
    _ keychain: SecKeychain?, _ ioPathLength: UnsafeMutablePointer<UInt32>, _ pathName: UnsafeMutablePointer<CChar>
) -> OSStatus {
    let path = (keychain?.files ?? KeychainEnvironment.current.files).database.path
    let bytes = Array(path.utf8)
    guard bytes.count < Int(ioPathLength.pointee) else { return errSecParam }
    for (index, byte) in bytes.enumerated() { pathName[index] = CChar(bitPattern: byte) }
    pathName[bytes.count] = 0
    ioPathLength.pointee = UInt32(bytes.count)
    return errSecSuccess
}

// MARK: - Locking

/// Locks a keychain (nil: the default) for every process of this user: its
/// `WhenUnlocked` items give errSecInteractionNotAllowed until it is unlocked.
@discardableResult
public func SecKeychainLock(_ keychain: SecKeychain?) -> OSStatus {
    keychainCall { try resolve(keychain).lock() }
}

/// Locks every keychain in the keychains folder.
@discardableResult
public func SecKeychainLockAll() -> OSStatus {
    keychainCall {
        for files in keychainsInFolder(KeychainEnvironment.current.directory) {
            try KeychainStore.shared(files, create: false).lock()
        }
    }
}

/// Unlocks a keychain (nil: the default) for every process of this user, with the password
/// given. errSecAuthFailed when it is wrong. With `usePassword` false, a keychain without a
/// password unlocks; one with a password would need a dialog, which a library on Linux
/// cannot show: errSecInteractionNotAllowed.
@discardableResult
public func SecKeychainUnlock(
    _ keychain: SecKeychain?, _ passwordLength: UInt32, _ password: UnsafeRawPointer?, _ usePassword: Bool
) -> OSStatus {
    keychainCall {
        let store = try resolve(keychain)
        if !usePassword, try store.hasPassword { throw KeychainError.interactionNotAllowed }
        try store.unlock(password: usePassword ? passwordBytes(password, passwordLength) : nil)
    }
}

/// Whether a keychain (nil: the default) is unlocked, readable and writable.
@discardableResult
public func SecKeychainGetStatus(_ keychain: SecKeychain?, _ keychainStatus: UnsafeMutablePointer<SecKeychainStatus>) -> OSStatus {
    keychainCall {
        let store = try resolve(keychain)
        var status: SecKeychainStatus = 0
        if store.isUnlocked { status |= kSecUnlockStateStatus }
        if access(store.files.database.path, R_OK) == 0 { status |= kSecReadPermStatus }
        if access(store.files.database.path, W_OK) == 0 { status |= kSecWritePermStatus }
        keychainStatus.pointee = status
    }
}

/// Sets, changes or removes (a new length of 0) a keychain's password. errSecAuthFailed
/// when the old password is wrong, and nothing changes. Only the class keys are rewrapped.
/// Removing the password deletes the keychain's `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`
/// items, as on iOS.
@discardableResult
public func SecKeychainChangePassword(
    _ keychainRef: SecKeychain?, _ oldPasswordLength: UInt32, _ oldPassword: UnsafeRawPointer?,
    _ newPasswordLength: UInt32, _ newPassword: UnsafeRawPointer?
) -> OSStatus {
    keychainCall {
        try resolve(keychainRef).changePassword(
            from: passwordBytes(oldPassword, oldPasswordLength), to: passwordBytes(newPassword, newPasswordLength))
    }
}

// MARK: - Settings

/// A keychain's auto-lock settings (nil: the default keychain's).
@discardableResult
public func SecKeychainCopySettings(_ keychain: SecKeychain?, _ outSettings: UnsafeMutablePointer<SecKeychainSettings>) -> OSStatus {
    keychainCall {
        guard outSettings.pointee.version == UInt32(SEC_KEYCHAIN_SETTINGS_VERS1) else {
            throw KeychainError.param("SecKeychainSettings.version must be SEC_KEYCHAIN_SETTINGS_VERS1")
        }
        outSettings.pointee = SecKeychainSettings(try resolve(keychain).settings())
    }
}

/// Changes a keychain's auto-lock settings (nil: the default keychain's). An unlocked
/// keychain takes them at once, in every process.
@discardableResult
public func SecKeychainSetSettings(_ keychain: SecKeychain?, _ newSettings: UnsafePointer<SecKeychainSettings>) -> OSStatus {
    keychainCall {
        guard newSettings.pointee.version == UInt32(SEC_KEYCHAIN_SETTINGS_VERS1) else {
            throw KeychainError.param("SecKeychainSettings.version must be SEC_KEYCHAIN_SETTINGS_VERS1")
        }
        try resolve(keychain).setSettings(newSettings.pointee.keychainSettings)
    }
}

// MARK: -

private func resolve(_ keychain: SecKeychain?) throws(KeychainError) -> KeychainStore {
    try (keychain ?? SecKeychain.environmentDefault).store()
}

/// The keychains that exist in `directory`, by name.
private func keychainsInFolder(_ directory: URL) -> [KeychainFiles] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".keychain-db") }.sorted()
        .map { KeychainFiles(directory: directory, name: String($0.dropLast(".keychain-db".count))) }
        .filter(KeychainStore.exists)
}

/// The password bytes, or nil for none.
private func passwordBytes(_ password: UnsafeRawPointer?, _ length: UInt32) -> Data? {
    guard let password, length > 0 else { return nil }
    return Data(bytes: password, count: Int(length))
}

/// Runs a keychain-management call and turns its outcome into a status.
private func keychainCall(_ body: () throws -> Void) -> OSStatus {
    do {
        try body()
        return errSecSuccess
    } catch {
        return (error as? KeychainError)?.status ?? errSecIO
    }
}
