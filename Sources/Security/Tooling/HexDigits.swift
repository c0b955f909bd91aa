package import KeychainCore

/// Bytes as hexadecimal digits and back, for this package's tools (keychainctl's `-X`
/// passwords and printed buffers): the core's one implementation, not a second.
package typealias Hex = KeychainCore.Hex
