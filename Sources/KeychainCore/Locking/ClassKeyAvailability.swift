import Crypto
import Foundation
import Synchronization

/// Which protection classes of one keychain are open now, and their keys.
///
/// Class D keys open with the device key when the keychain opens. Class A and C keys come
/// from an unlock, through two entries of the ``UnlockedKeyCache``: the session entry
/// (class A and C keys and the auto-lock settings; revoked by a lock, timed out by the
/// auto-lock) and the boot entry (class C keys; kept until reboot). A process that did not unlock reads them there, so
/// every process of the user sees the same lock state, and none reruns the KDF.
///
/// A use of a class A key reads the session entry again (one system call) when the
/// ``SessionGeneration`` count moved since this process last read it, or when an auto-lock
/// timeout must be restarted; so a lock in another process, an expired timeout or a sleep
/// takes effect at the next call.
final class ClassKeyAvailability: Sendable {
    private struct Session {
        var handle: UnlockedKeyCache.Handle
        var bytes: SecretBytes
        var payload: UnlockPayload
        /// The shared count when the entry was read; nil: read it again at the next use.
        var generation: UInt64?
    }

    private struct State {
        /// Set through ``setSession(_:)``, which drops the ciphers of keys that go.
        private(set) var session: Session?
        /// Set through ``setBoot(_:)``, likewise.
        private(set) var boot: UnlockPayload?
        /// For a keychain without a password: its class keys and settings, which open it at
        /// its first use since boot, as a login keychain opens at login.
        var firstUnlock: Unlock?
        /// AES-GCM set up under the class keys in use (``cipherAndEpoch(for:)``), by
        /// ``cipherSlot(of:)``: held no longer than the session or boot entry their keys
        /// came from, so that a lock leaves no expanded key behind.
        private(set) var ciphers = [KeyedAESGCM?](repeating: nil, count: Accessibility.allCases.count)
        /// Advanced whenever ciphers are dropped: one made from a key read before then is
        /// not kept, as that key may be one just dropped.
        private(set) var cipherGeneration: UInt64 = 0

        /// Another session entry, or none: the class A ciphers go with the keys they were
        /// made from. The same entry (its count read again) keeps them.
        mutating func setSession(_ new: Session?) {
            if session?.bytes !== new?.bytes { forgetCiphers(of: .whenUnlocked) }
            session = new
        }

        mutating func setBoot(_ new: UnlockPayload?) {
            forgetCiphers(of: .afterFirstUnlock)
            boot = new
        }

        mutating func keep(_ cipher: KeyedAESGCM, for accessibility: Accessibility) {
            ciphers[ClassKeyAvailability.cipherSlot(of: accessibility)] = cipher
        }

        private mutating func forgetCiphers(of protectionClass: ProtectionClass) {
            for accessibility in Accessibility.allCases where accessibility.protectionClass == protectionClass {
                ciphers[ClassKeyAvailability.cipherSlot(of: accessibility)] = nil
            }
            cipherGeneration &+= 1
        }
    }

    /// Where a protection class's cipher is kept: a switch rather than a dictionary, whose
    /// hashing of the raw value cost a find more than the lookup it spared.
    fileprivate static func cipherSlot(of accessibility: Accessibility) -> Int {
        switch accessibility {
        case .whenUnlocked: 0
        case .afterFirstUnlock: 1
        case .always: 2
        case .whenUnlockedThisDeviceOnly: 3
        case .afterFirstUnlockThisDeviceOnly: 4
        case .alwaysThisDeviceOnly: 5
        case .whenPasscodeSetThisDeviceOnly: 6
        }
    }

    /// What an unlock opens: the class A and C keys (read when first needed), the settings
    /// that decide when class A locks again, and the keys' epoch. Also what opens a keychain
    /// without a password at its first use since boot.
    struct Unlock: Sendable {
        var keys: DeferredKeys
        var settings: KeychainSettings
        var epoch: UInt64
    }

    private let cache: UnlockedKeyCache
    private let sessionName: String
    private let bootName: String
    private let alwaysKeys: DeferredKeys
    private let generation: SessionGeneration
    private let state = Mutex(State())

    /// - Parameters:
    ///   - keychainID: names this keychain's entries in the cache.
    ///   - alwaysKeys: the class D keys that opened (a ThisDeviceOnly key of a keychain
    ///     copied from another machine does not).
    init(keychainID: String, alwaysKeys: DeferredKeys, firstUnlock: Unlock?,
         cache: UnlockedKeyCache = .shared) {
        self.cache = cache
        self.sessionName = "swift-keychain:\(keychainID):session"
        self.bootName = "swift-keychain:\(keychainID):boot"
        self.alwaysKeys = alwaysKeys
        self.generation = SessionGeneration(keychainID: keychainID)
        state.withLock { $0.firstUnlock = firstUnlock }
    }

    /// Sets what opens the keychain at its first use since boot: its keys while it has no
    /// password; nil once it has one (a password file is read again when it is next opened).
    func setFirstUnlock(_ firstUnlock: Unlock?) {
        state.withLock { $0.firstUnlock = firstUnlock }
    }

    /// The key of `accessibility`: errSecInteractionNotAllowed while its class is locked,
    /// errSecDecode when it is bound to another machine.
    func key(for accessibility: Accessibility) throws(KeychainError) -> SymmetricKey {
        try keyAndEpoch(for: accessibility).key
    }

    /// The key of `accessibility` and the epoch of the unlock it came from (nil for class D,
    /// whose keys never change), which a write checks against the keychain's.
    func keyAndEpoch(for accessibility: Accessibility) throws(KeychainError) -> (key: SymmetricKey, epoch: UInt64?) {
        do {
            return try openKey(for: accessibility)
        } catch .interactionNotAllowed {
            // Whether this thread made the first-use unlock or another one made it meanwhile,
            // the key may be there now: look once more.
            unlockForFirstUse()
            return try openKey(for: accessibility)
        }
    }

    /// ``keyAndEpoch(for:)`` with the key set up for AES-GCM, which every seal and open of an
    /// item takes: the setup is kept while the key is held, rather than made for each call.
    func cipherAndEpoch(for accessibility: Accessibility) throws(KeychainError) -> (cipher: KeyedAESGCM, epoch: UInt64?) {
        let generation = state.withLock { $0.cipherGeneration }
        let (key, epoch) = try keyAndEpoch(for: accessibility)
        let cipher = try state.withLock { state throws(KeychainError) -> KeyedAESGCM in
            let unchanged = state.cipherGeneration == generation
            if unchanged, let cipher = state.ciphers[Self.cipherSlot(of: accessibility)] { return cipher }
            // Class keys are 256 bits; any other size cannot open anything.
            guard let cipher = KeyedAESGCM(key: key) else { throw .decode }
            if unchanged { state.keep(cipher, for: accessibility) }
            return cipher
        }
        return (cipher, epoch)
    }

    /// Opens a keychain without a password, or one whose password file holds its password,
    /// when it was not unlocked since boot. False when it has a password and no password file
    /// that opens it, or was unlocked (and perhaps locked again) since boot.
    @discardableResult
    func unlockForFirstUse() -> Bool {
        guard let firstUnlock = state.withLock({ $0.firstUnlock }), !wasUnlockedSinceBoot,
              // Keys that did not open leave the keychain locked, rather than unlocked with
              // none, which every process would then take for an unlock.
              !firstUnlock.keys.keys.isEmpty else { return false }
        publish(firstUnlock)
        return true
    }

    private func openKey(for accessibility: Accessibility) throws(KeychainError) -> (key: SymmetricKey, epoch: UInt64?) {
        let keys: [Accessibility: SymmetricKey]
        let epoch: UInt64?
        switch accessibility.protectionClass {
        case .always:
            keys = alwaysKeys.keys
            epoch = nil
        case .afterFirstUnlock:
            guard let boot = bootPayload() else { throw .interactionNotAllowed }
            keys = boot.keys
            epoch = boot.epoch
        case .whenUnlocked:
            guard let session = currentSession() else { throw .interactionNotAllowed }
            keys = session.keys
            epoch = session.epoch
        }
        // Missing only for ThisDeviceOnly keys that did not open here (logged at open and
        // at unlock): the item cannot be decoded on this machine.
        guard let key = keys[accessibility] else { throw .decode }
        return (key, epoch)
    }

    /// The epochs of the class A and C keys this process holds now.
    var heldEpochs: [UInt64] {
        state.withLock { state in [state.session?.payload.epoch, state.boot?.epoch].compactMap { $0 } }
    }

    /// Drops this process's copies of the class A and C keys, so that the next use reads
    /// them from the cache again: after another process changed the keychain's password,
    /// which replaces them.
    func forgetLocalCopies() {
        state.withLock { state in
            state.setSession(nil)
            state.setBoot(nil)
        }
    }

    /// Whether the unlock this process holds is in the kernel keyring, where the user's
    /// other processes find it, rather than in this process's memory only.
    var unlockReachesOtherProcesses: Bool {
        _ = currentSession()
        return state.withLock { ($0.session?.handle ?? 0) > 0 }
    }

    /// Whether an unlock made now would reach the user's other processes.
    var unlocksReachOtherProcesses: Bool { cache.reachesOtherProcesses }

    /// Whether class A is open (after the first-use unlock of a keychain without a password).
    var isUnlocked: Bool { (try? key(for: .whenUnlocked)) != nil }

    /// Whether the keychain was unlocked since the machine started (class C is open).
    var wasUnlockedSinceBoot: Bool { bootPayload() != nil }

    /// Opens classes A and C with the keys an unlock produced, for this and every process.
    func publish(_ unlock: Unlock) {
        let keys = unlock.keys.keys, settings = unlock.settings, epoch = unlock.epoch
        let boot = UnlockPayload(settings: KeychainSettings(), suspendedAtUnlock: 0, epoch: epoch,
                                 keys: keys.filter { $0.key.protectionClass == .afterFirstUnlock })
        let session = UnlockPayload(settings: settings, suspendedAtUnlock: SuspendClock.suspendedNanoseconds(),
                                    epoch: epoch, keys: keys.filter { $0.key.protectionClass != .always })
        state.withLock { state in
            cache.store(boot.bytes, as: bootName, timeout: nil)
            state.setBoot(boot)
            let sessionBytes = session.bytes
            let handle = cache.store(sessionBytes, as: sessionName, timeout: settings.lockInterval.map(Self.kernelTimeout))
            state.setSession(Session(handle: handle, bytes: sessionBytes, payload: session))
            generation.advance()
        }
    }

    /// Applies new settings to an open session, in every process.
    func apply(_ settings: KeychainSettings) {
        guard var payload = currentSession() else { return }
        payload.settings = settings
        state.withLock { state in
            let bytes = payload.bytes
            let handle = cache.store(bytes, as: sessionName, timeout: settings.lockInterval.map(Self.kernelTimeout))
            state.setSession(Session(handle: handle, bytes: bytes, payload: payload))
            generation.advance()
        }
    }

    /// Closes class A, in every process.
    func lock() {
        // A keychain without a password would otherwise unlock itself at the next use, as
        // at its first use since boot: that first unlock happens now instead.
        unlockForFirstUse()
        state.withLock { state in
            cache.remove(sessionName)
            state.setSession(nil)
            generation.advance()
        }
    }

    /// Closes classes A and C as a reboot would. For tests, which cannot reboot.
    func forgetSinceBoot() {
        state.withLock { state in
            cache.remove(sessionName)
            cache.remove(bootName)
            state.setSession(nil)
            state.setBoot(nil)
            generation.advance()
        }
    }

    /// The file of the shared count of changes (see ``SessionGeneration``).
    var sharedCountPath: String { generation.path }

    /// Removes the shared count's file, for a keychain deleted for good: a keychain made
    /// later in its place has another id, and so another count.
    func removeSharedCount() {
        unlink(generation.path)
    }

    // MARK: -

    /// The kernel sets an expiry of whole seconds from the current whole second, so a
    /// timeout of n can end up to a second early: one more makes the lock come between n
    /// and n + 1 seconds after the last use.
    private static func kernelTimeout(_ interval: UInt32) -> UInt32 {
        interval == .max ? interval : interval + 1
    }

    private func bootPayload() -> UnlockPayload? {
        state.withLock { state in
            if let boot = state.boot { return boot }
            guard let found = cache.find(bootName), let payload = UnlockPayload(bytes: found.payload) else { return nil }
            state.setBoot(payload)
            return payload
        }
    }

    /// The open session's payload, or nil while class A is locked. Restarts the idle timeout,
    /// and locks when the machine slept since the unlock and the settings say so.
    private func currentSession() -> UnlockPayload? {
        state.withLock { state -> UnlockPayload? in
            // Read before the entry, so that a change after this moves the count past it.
            let seen = generation.current()
            var session: Session
            if let current = state.session, let seen, current.generation == seen,
               current.payload.settings.lockInterval == nil {
                // No change since the entry was read, and no timeout to restart.
                session = current
            } else if let current = state.session,
               case let reading = cache.read(current.handle, unlessEqualTo: current.bytes), reading != .gone {
                session = current
                if case .changed(let bytes) = reading {
                    guard let payload = UnlockPayload(bytes: bytes) else { return nil }
                    session.bytes = bytes
                    session.payload = payload
                }
            } else if let found = cache.find(sessionName), let payload = UnlockPayload(bytes: found.payload) {
                session = Session(handle: found.handle, bytes: found.payload, payload: payload)
            } else {
                state.setSession(nil)
                return nil
            }
            session.generation = seen
            if session.payload.settings.lockOnSleep,
               SuspendClock.suspendedNanoseconds() - session.payload.suspendedAtUnlock > 1_000_000_000 {
                cache.remove(sessionName)
                state.setSession(nil)
                generation.advance()
                return nil
            }
            if let interval = session.payload.settings.lockInterval {
                cache.touch(session.handle, timeout: Self.kernelTimeout(interval))
            }
            state.setSession(session)
            return session.payload
        }
    }
}
