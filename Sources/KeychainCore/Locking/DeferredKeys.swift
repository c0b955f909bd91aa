import Crypto
import Synchronization

/// Class keys opened when first needed rather than when the keychain opens.
///
/// Opening a ThisDeviceOnly key reads the machine secret: a folder, a file,
/// `/etc/machine-id` and an HKDF, in every process that opens the keychain, although most
/// never touch such an item; and a keychain without a password needs its class A and C keys
/// only at its first use since boot, which most processes find already made.
final class DeferredKeys: Sendable {
    private let state: Mutex<(open: (@Sendable () -> [Accessibility: SymmetricKey])?, keys: [Accessibility: SymmetricKey])>

    /// Keys that `open` gives on first use; it runs once.
    init(_ open: @escaping @Sendable () -> [Accessibility: SymmetricKey]) {
        state = Mutex((open, [:]))
    }

    /// Keys known already.
    init(_ keys: [Accessibility: SymmetricKey]) {
        state = Mutex((nil, keys))
    }

    var keys: [Accessibility: SymmetricKey] {
        state.withLock { state in
            if let open = state.open {
                state.keys = open()
                state.open = nil
            }
            return state.keys
        }
    }
}
