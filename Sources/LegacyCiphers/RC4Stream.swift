// RC4: BoringSSL's, the one that swift-crypto builds and ships (it has no Swift API for it).
// For CommonCrypto's kCCAlgorithmRC4 only: code that still speaks it (old protocols and file
// formats). RC4 is broken; nothing in this package uses it for its own data.
// Implementation-only, as swift-crypto imports it (see TripleDES.swift).
@_implementationOnly import CCryptoBoringSSL

/// An RC4 keystream, XORed into the bytes it is given, continuing from one call to the next.
/// Its state is zeroed when it is released.
package final class RC4Stream {
    private var state = RC4_KEY()

    /// `key` of 1 to 512 bytes, CommonCrypto's bounds; nil otherwise.
    package init?(key: [UInt8]) {
        guard (1...512).contains(key.count) else { return nil }
        CCryptoBoringSSL_RC4_set_key(&state, UInt32(key.count), key)
    }

    deinit {
        withUnsafeMutableBytes(of: &state) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// Encrypts or decrypts (the same with RC4) `bytes` in place.
    package func apply(to bytes: inout [UInt8]) {
        let count = bytes.count
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            CCryptoBoringSSL_RC4(&state, count, base, base)
        }
    }
}
