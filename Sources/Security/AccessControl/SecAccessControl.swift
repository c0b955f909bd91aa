import Foundation
@_implementationOnly import KeychainCore

/// The constraints and options of an access control: what the user must do before an item's
/// secret or a key's private part is used.
///
/// On Linux the user proves presence with their own login password, checked by PAM, on the
/// controlling terminal or through an agent program (`KEYCHAIN_ASKPASS`). There is no biometry,
/// watch or companion device: a constraint that needs only those cannot be met, as on a Mac
/// without Touch ID.
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable {
    public let rawValue: CFOptionFlags

    public init(rawValue: CFOptionFlags) {
        self.rawValue = rawValue
    }

    /// The user proves presence with biometry or the device passcode; on Linux, their login
    /// password.
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    /// Biometry, any enrolled finger or face. Never available on Linux.
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// The former name of ``biometryAny``.
    public static let touchIDAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// Biometry of the currently enrolled set. Never available on Linux.
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// The former name of ``biometryCurrentSet``.
    public static let touchIDCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// The device passcode; on Linux, the user's login password.
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    /// A paired watch. Never available on Linux.
    public static let watch = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// A paired companion device (the same constant as ``watch``). Never available on Linux.
    public static let companion = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// At least one of the constraints must be satisfied.
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    /// Every constraint must be satisfied.
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    /// A private key may be used for signing and key exchange (Secure Enclave keys).
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    /// The secret is also encrypted under a key derived from a password the application
    /// supplies (through an `LAContext` credential, or asked for when it has none).
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)

    /// The constraints that ask for the user: every flag but the conjunctions and options.
    static let constraints: SecAccessControlCreateFlags = [.userPresence, .biometryAny, .biometryCurrentSet,
                                                           .devicePasscode, .companion]
    /// Every flag Apple defines.
    static let known: SecAccessControlCreateFlags = constraints.union([.or, .and, .privateKeyUsage, .applicationPassword])
}

/// An access control: an item's protection class (as `kSecAttrAccessible` gives it) and the
/// constraints on its use. Give it with `kSecAttrAccessControl` in place of
/// `kSecAttrAccessible` when adding an item or creating a key.
public final class SecAccessControl: CoreFoundationTyped, Sendable, CustomStringConvertible {
    /// The `kSecAttrAccessible` value.
    package let protection: String
    package let flags: SecAccessControlCreateFlags

    package init(protection: String, flags: SecAccessControlCreateFlags) {
        self.protection = protection
        self.flags = flags
    }

    /// Unique among the types of the process: the address of the class's metadata.
    package static var coreFoundationTypeID: CFTypeID {
        CFTypeID(bitPattern: ObjectIdentifier(SecAccessControl.self).hashValue)
    }

    /// Whether reading the secret (or using the private key) needs the user to prove presence.
    package var requiresUserPresence: Bool {
        !flags.intersection(SecAccessControlCreateFlags.constraints).isEmpty
    }

    /// Whether the secret is also sealed under an application password.
    package var requiresApplicationPassword: Bool { flags.contains(.applicationPassword) }

    /// Whether the constraints can be met on this system, where the login password stands for
    /// the passcode and there is no biometry, watch or companion: with `.or`, one constraint
    /// that can; otherwise every one of them.
    package var presenceCanBeProven: Bool {
        let asked = flags.intersection(SecAccessControlCreateFlags.constraints)
        let provable: SecAccessControlCreateFlags = [.userPresence, .devicePasscode]
        if asked.isEmpty { return true }
        if flags.contains(.or) { return !asked.intersection(provable).isEmpty }
        return asked.subtracting(provable).isEmpty
    }

    public var description: String {
        "<SecAccessControl: \(protection); flags 0x\(String(flags.rawValue, radix: 16))>"
    }

    /// Two access controls are equal when their protection and flags are.
    package func hasSameMeaning(as other: SecAccessControl) -> Bool {
        protection == other.protection && flags == other.flags
    }
}

/// The type identifier of access controls: what `CFGetTypeID` returns for a ``SecAccessControl``.
@discardableResult
public func SecAccessControlGetTypeID() -> CFTypeID {
    SecAccessControl.coreFoundationTypeID
}

/// Creates an access control from a protection class and flags.
///
/// - Parameters:
///   - allocator: Ignored; pass nil or `kCFAllocatorDefault`.
///   - protection: One of the `kSecAttrAccessible` values.
///   - flags: The constraints, at most one of `.or` and `.and`, and the options.
///   - error: On failure, an error of the `NSOSStatusErrorDomain` with `errSecParam`.
/// - Returns: The access control, or nil when `protection` is not a `kSecAttrAccessible`
///   value, the flags hold an unknown bit, or both `.or` and `.and`.
@discardableResult
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) in
        guard let name = FoundationValues.string(protection), Accessibility(rawValue: name) != nil else {
            throw KeyFailure(.param, "the protection must be one of the kSecAttrAccessible values")
        }
        guard flags.subtracting(.known).isEmpty else {
            throw KeyFailure(.param, "the flags hold a bit that is no SecAccessControlCreateFlags value")
        }
        guard !flags.isSuperset(of: [.or, .and]) else {
            throw KeyFailure(.param, "only one of .or and .and can be set")
        }
        return SecAccessControl(protection: name, flags: flags)
    }
}
