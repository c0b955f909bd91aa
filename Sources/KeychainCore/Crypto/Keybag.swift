import Crypto
import Foundation

/// The wrapped keys of one keychain, as the `keybag` table stores them: a class key per
/// `kSecAttrAccessible` value and the index key for the keyed hashes of searched attributes.
///
/// The keys themselves are random and never change; what changes with a password is only
/// how they are wrapped, which each row records (``KeyWrapping``). So setting, changing or
/// removing a password rewraps eight keys and re-encrypts no item.
enum Keybag {
    static let indexKeyName = "index"

    /// All key names the keybag holds.
    static var keyNames: [String] { [indexKeyName] + Accessibility.allCases.map(\.rawValue) }

    /// How the key `name` is wrapped in a keychain with or without a password.
    ///
    /// The index key and class D need no password: finding an `Always` item must work while
    /// the keychain is locked. ThisDeviceOnly classes are bound to the machine secret too.
    static func wrapping(of name: String, withPassword: Bool) -> KeyWrapping {
        guard let accessibility = Accessibility(rawValue: name) else { return .device }
        let base: KeyWrapping = withPassword && accessibility.protectionClass != .always ? .password : .device
        return accessibility.isThisDeviceOnly ? base.boundToMachine : base
    }

    static func wrap(_ key: SymmetricKey, named name: String, with wrappingKey: SymmetricKey) throws(KeychainError) -> Data {
        var plaintext = key.withUnsafeBytes { Data($0) }
        defer { plaintext.zeroize() }
        return try RecordSealer.seal(plaintext, with: wrappingKey, binding: aad(name))
    }

    /// The key, or errSecDecode when it does not open under `wrappingKey`.
    static func unwrap(_ wrapped: Data, named name: String, with wrappingKey: SymmetricKey) throws(KeychainError) -> SymmetricKey {
        SymmetricKey(data: try RecordSealer.open(wrapped, with: wrappingKey, binding: aad(name)))
    }

    private static func aad(_ name: String) -> Data { Data(utf8Of: "swift-keychain keybag \(name)") }
}

/// How a keybag row's key is wrapped: by the device key or by the key derived from the
/// keychain's password, either one alone or bound to the machine secret as well.
enum KeyWrapping: String, Sendable {
    case device
    case deviceAndMachine = "device+machine"
    case password
    case passwordAndMachine = "password+machine"

    var boundToMachine: KeyWrapping {
        switch self {
        case .device, .deviceAndMachine: .deviceAndMachine
        case .password, .passwordAndMachine: .passwordAndMachine
        }
    }

    var needsPassword: Bool { self == .password || self == .passwordAndMachine }
    var needsMachineSecret: Bool { self == .deviceAndMachine || self == .passwordAndMachine }

    /// The wrapping key: the device or password key, bound to the machine secret through
    /// HKDF where this wrapping says so.
    func key(base: SymmetricKey, machineSecret: () throws(KeychainError) -> SymmetricKey) throws(KeychainError) -> SymmetricKey {
        guard needsMachineSecret else { return base }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: base, salt: try machineSecret().withUnsafeBytes { Data($0) },
            info: Data(utf8Of: "swift-keychain this device only"), outputByteCount: 32)
    }
}
