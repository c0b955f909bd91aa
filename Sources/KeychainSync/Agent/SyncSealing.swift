import Crypto
import Foundation
import KeychainCore

/// Seals what the agent keeps about an item between passes (a tombstone's content: the item's
/// class and primary key), so that its state file names no account or service. The key is
/// derived from the group's id key, which only members hold and which never rotates; the
/// state file alone opens nothing.
struct SyncSealing {
    private let key: SymmetricKey

    init(secrets: GroupSecrets) {
        // The id key's PRF under a label no item's identity bytes begin with (they begin with
        // the class), so that it is a key of its own.
        key = SymmetricKey(data: secrets.itemID(for: Data("swift-keychain sync: state sealing key".utf8)))
    }

    func seal(_ item: SyncedItem) throws(SyncFailure) -> Data {
        // A tombstone's content: the class and the identity attributes, no secret.
        let content = item.serialized(includingSecret: false)
        do {
            return try RecordSealer.seal(content, with: key, binding: Data())
        } catch {
            throw .damaged("a tombstone could not be sealed")
        }
    }

    func open(_ sealed: Data) throws(SyncFailure) -> SyncedItem {
        let content: Data
        do {
            content = try RecordSealer.open(sealed, with: key, binding: Data())
        } catch {
            throw .damaged("the sync state holds a tombstone that does not open (was the group's key lost?)")
        }
        do {
            return try SyncedItem(serialized: content)
        } catch {
            throw .keychain(error)
        }
    }
}
