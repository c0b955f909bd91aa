import Foundation
import KeychainSync
import Testing

/// A sync group as the members see it, built through the package API: a founder, the shared
/// secrets and the verified roster chain, with members added and removed as the agent would.
struct SyncGroupFixture {
    let group = GroupID.random()
    let founder = DeviceIdentity.generate(name: "founder")
    var secrets = GroupSecrets.new()
    var chain: RosterChain
    private var counters: [DeviceID: UInt64] = [:]

    init() throws {
        let genesis = try Roster.genesis(group: group, founder: founder)
        chain = try RosterChain(genesis: genesis, pinnedHash: genesis.hash)
    }

    /// Adds `device` (a new roster signed by the founder, the same key for the new epoch).
    mutating func add(_ device: DeviceIdentity) throws {
        try chain.append(chain.current.adding(device.publicIdentity, signer: founder))
        _ = secrets.advanceKeepingKey()
    }

    /// Removes `device`, vouching for `records` of it (a new roster and a fresh key).
    mutating func remove(_ device: DeviceID, vouching records: [SealedRecord] = []) throws {
        try chain.append(chain.current.removing(device, vouching: records.map(\.vouched), signer: founder))
        _ = secrets.rotate()
    }

    /// A record of `content` by `author` under the current epoch, with the next counter of
    /// that author unless `counter` is given.
    /// It names the chain's roster of its epoch as its roster head unless `rosterHead` is given.
    mutating func record(_ content: Data, by author: DeviceIdentity, item: String = "item", time: UInt64 = 1_000,
                         counter: UInt64? = nil, tombstone: Bool = false, secrets: GroupSecrets? = nil,
                         rosterHead: Data? = nil) throws -> SealedRecord {
        let next = counter ?? (counters[author.id, default: 0] + 1)
        counters[author.id] = next
        let sealing = secrets ?? self.secrets
        let head = try rosterHead ?? #require(chain.roster(epoch: sealing.currentEpoch)).hash
        return try SealedRecord.seal(
            content: content, itemID: self.secrets.itemID(for: Data(item.utf8)),
            version: RecordVersion(time: time, device: author.id, counter: next), isTombstone: tombstone,
            group: group, secrets: sealing, rosterHead: head, author: author)
    }
}

extension SealedRecord {
    /// What a removal roster lists to keep this record valid.
    var vouched: VouchedRecord { VouchedRecord(itemID: itemID, version: version, digest: digest) }

    /// The record as a member reads it back from the server, with the server's columns equal
    /// to its header.
    func fromServer(_ bytes: Data? = nil) throws -> SealedRecord {
        try SealedRecord(encoded: bytes ?? encoded, serverItemID: itemID, serverVersion: version.encoded)
    }
}

/// What a call threw, as a SyncRejection; nil when it did not throw. Any other error fails
/// the test (the setup around the call went wrong).
func rejection(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> SyncRejection? {
    do {
        try body()
        return nil
    } catch let error as SyncRejection {
        return error
    } catch {
        Issue.record("not a rejection: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// `data` with the byte at `index` XORed with `mask`.
func flipped(_ data: Data, at index: Int, mask: UInt8 = 0x01) -> Data {
    var copy = Data(data)
    copy[index] ^= mask
    return copy
}
