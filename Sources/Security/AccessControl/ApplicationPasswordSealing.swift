import Foundation
import Synchronization
@_implementationOnly import KeychainCore

/// The secrets an update stores, item by item: sealed under the application password for
/// items that have one. The update runs it inside its write, where no one may be asked: when
/// an item needs the password and no key is there yet, it fails the write and records that,
/// and the caller asks, derives the key and runs the update again.
final class ApplicationPasswordSealing: Sendable {
    private struct State {
        var key: ApplicationPasswordSeal.SealingKey?
        var neededPassword = false
    }

    private let state = Mutex(State())

    var key: ApplicationPasswordSeal.SealingKey? {
        get { state.withLock { $0.key } }
        set { state.withLock { $0.key = newValue } }
    }

    /// Whether a write failed for want of the password.
    var neededPassword: Bool { state.withLock { $0.neededPassword } }

    /// The secret for one item, before and after the change; nil keeps its own. Turning
    /// `.applicationPassword` on or off would leave a secret sealed the wrong way:
    /// errSecParam (delete the item and add it again).
    func secret(before: ItemRecord, after: ItemRecord, data: Data?) throws(KeychainError) -> Data? {
        let had = AccessControlAttributes.requiresApplicationPassword(before.attributes)
        let has = AccessControlAttributes.requiresApplicationPassword(after.attributes)
        guard had == has else {
            throw .param("an update cannot add or remove .applicationPassword: delete the item and add it again")
        }
        guard let data, has else { return data }
        guard let key else {
            state.withLock { $0.neededPassword = true }
            throw .interactionNotAllowed
        }
        return try ApplicationPasswordSeal.seal(data, with: key)
    }
}
