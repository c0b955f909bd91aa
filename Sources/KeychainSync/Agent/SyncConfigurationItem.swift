import Foundation
import KeychainCore

/// Where a keychain keeps its ``SyncConfiguration``: a generic password of its own access group,
/// readable after the first unlock and bound to this machine (ThisDeviceOnly), so that it never
/// syncs, never leaves in an export, and a copy of the keychain folder on another machine
/// cannot open it.
package struct SyncConfigurationItem: Sendable {
    /// The access group only sync uses: programs see the item only if they hold it.
    package static let accessGroup = "swift-keychain.sync"
    static let service = "swift-keychain sync"
    static let account = "configuration"

    let store: KeychainStore
    let caller = CallerIdentity(accessGroups: [accessGroup])

    package init(store: KeychainStore) {
        self.store = store
    }

    private var query: ItemQuery {
        ItemQuery(itemClass: .genericPassword,
                  attributes: ["svce": .string(Self.service), "acct": .string(Self.account), "agrp": .string(Self.accessGroup)],
                  returning: [.data])
    }

    /// The configuration, or nil when this keychain is not in a sync group.
    package func load() throws(SyncFailure) -> SyncConfiguration? {
        let found: [FoundItem]
        do {
            found = try store.find(query, by: caller)
        } catch .itemNotFound {
            return nil
        } catch {
            throw .keychain(error)
        }
        guard let data = found.first?.data else { return nil }
        return try SyncConfiguration(serialized: data)
    }

    /// Stores `configuration`, replacing the one kept before.
    package func save(_ configuration: SyncConfiguration) throws(SyncFailure) {
        let data = try configuration.serialized
        do {
            try store.update(query, with: ItemChanges(data: data), by: caller)
        } catch .itemNotFound {
            do {
                _ = try store.add(NewItem(
                    itemClass: .genericPassword,
                    attributes: [
                        "svce": .string(Self.service), "acct": .string(Self.account),
                        "agrp": .string(Self.accessGroup),
                        "pdmn": .string(Accessibility.afterFirstUnlockThisDeviceOnly.rawValue),
                        "labl": .string("Keychain sync"),
                    ],
                    data: data), by: caller)
            } catch {
                throw .keychain(error)
            }
        } catch {
            throw .keychain(error)
        }
    }

    /// Forgets the configuration; nothing when there is none.
    package func delete() throws(SyncFailure) {
        do {
            try store.delete(query, by: caller)
        } catch .itemNotFound {
            return
        } catch {
            throw .keychain(error)
        }
    }
}
