@_implementationOnly import KeychainCore

/// The Keychain Services statuses this module knows, for tools that explain an exit status:
/// a process can only exit with a status's low byte, as `security` does.
package enum SecStatusCatalog {
    /// Every status whose low byte is `lowByte`, with its name, in the order of Apple's
    /// headers.
    package static func statuses(withLowByte lowByte: UInt8) -> [(name: String, status: OSStatus)] {
        KeychainStatus.all.filter { UInt8(truncatingIfNeeded: $0.code) == lowByte }.map { ($0.name, $0.code) }
    }

    /// The name of a status in Apple's headers, such as `errSecItemNotFound` for -25300; nil
    /// for a code that is not one of them.
    package static func name(of status: OSStatus) -> String? {
        KeychainStatus.all.first { $0.code == status }?.name
    }
}
