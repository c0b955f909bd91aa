import Crypto
import Foundation
import KeychainCore

/// What a member keeps secret about its sync group: where the server is (its address may hold
/// a password), which group, the genesis roster it pinned, its own device identity (private
/// keys) and the group's secrets. Kept as one keychain item (``SyncConfigurationItem``) so that
/// a change to any of it is one atomic write, never half applied.
package struct SyncConfiguration: Sendable {
    /// Where this device is in joining the group.
    package enum Membership: String, Sendable, Codable {
        /// A join request is posted; no approval yet.
        case joining
        /// An approved member with the group's keys.
        case member
    }

    package var server: String
    package var group: GroupID
    package var genesisHash: Data
    package var device: DeviceIdentity
    package var membership: Membership
    /// Nil while joining.
    package var secrets: GroupSecrets?

    package init(server: String, group: GroupID, genesisHash: Data, device: DeviceIdentity,
                 membership: Membership, secrets: GroupSecrets?) {
        self.server = server
        self.group = group
        self.genesisHash = genesisHash
        self.device = device
        self.membership = membership
        self.secrets = secrets
    }

    /// The stored form: JSON, whose decoder reports malformed input as an error rather than
    /// trapping. It holds private keys, so it is only ever stored as a keychain secret.
    private struct Stored: Codable {
        var format: Int
        var server: String
        var group: String
        var genesisHash: Data
        var device: Data
        var membership: Membership
        var secrets: Data?
    }

    package var serialized: Data {
        get throws(SyncFailure) {
            let stored = Stored(format: 1, server: server, group: group.hex, genesisHash: genesisHash,
                                device: device.serialized, membership: membership, secrets: secrets?.serialized)
            do {
                return try JSONEncoder().encode(stored)
            } catch {
                throw .damaged("the sync configuration could not be encoded")
            }
        }
    }

    package init(serialized: Data) throws(SyncFailure) {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: serialized)
        } catch {
            throw .damaged("the sync configuration kept in the keychain cannot be read")
        }
        guard stored.format == 1 else {
            throw .damaged("the sync configuration was written by a newer version (format \(stored.format))")
        }
        guard let group = GroupID(hex: stored.group) else {
            throw .damaged("the sync configuration names a malformed group")
        }
        do {
            self.init(server: stored.server, group: group, genesisHash: stored.genesisHash,
                      device: try DeviceIdentity(serialized: stored.device), membership: stored.membership,
                      secrets: try stored.secrets.map { try GroupSecrets(serialized: $0) })
        } catch {
            throw .damaged("the sync configuration's keys cannot be read")
        }
    }
}
