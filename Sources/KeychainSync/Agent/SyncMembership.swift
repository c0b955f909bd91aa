import Foundation
import KeychainCore
import Logging

/// The membership commands (`keychainctl sync setup | join | approve | remove | leave`), each
/// a short exchange with the server that leaves the keychain's configuration and the agent's
/// state consistent: the server is written first, then what this member keeps, so that a
/// command cut short can be run again.
package struct SyncMembership: Sendable {
    package let files: KeychainFiles
    package let store: KeychainStore
    let logger: Logger
    /// Runs between a removal's last read of the server and its publication: tests append
    /// records there to check that the removal reads them and vouches for them.
    let beforePublishingRemoval: (@Sendable () async -> Void)?

    package init(files: KeychainFiles, store: KeychainStore, logger: Logger,
                 beforePublishingRemoval: (@Sendable () async -> Void)? = nil) {
        self.files = files
        self.store = store
        self.logger = logger
        self.beforePublishingRemoval = beforePublishingRemoval
    }

    var item: SyncConfigurationItem { SyncConfigurationItem(store: store) }

    /// Runs `body` with a connection to `address`, closed when it ends, also when it fails: a
    /// connection left to the process's exit is dropped unclosed.
    static func withServer<T: Sendable>(_ address: String, logger: Logger,
                                        _ body: (SyncServer) async throws(SyncFailure) -> T) async throws(SyncFailure) -> T {
        let server = try await connect(address, logger: logger)
        do {
            let result = try await body(server)
            await server.close()
            return result
        } catch {
            await server.close()
            throw error
        }
    }

    package static func connect(_ server: String, logger: Logger) async throws(SyncFailure) -> SyncServer {
        do {
            return try await SyncServer.connect(try SyncServerAddress(parsing: server), logger: logger)
        } catch {
            throw .server(error)
        }
    }

    /// `sync setup`: creates the server's tables (or migrates them), a new group with this
    /// device as its first member, and turns the keychain's change log on, which logs every
    /// synchronizable item there is so that the first pass sends them.
    package func setup(server address: String, deviceName: String) async throws(SyncFailure) -> SyncConfiguration {
        guard try item.load() == nil else { throw .alreadyConfigured }
        return try await Self.withServer(address, logger: logger) { (server: SyncServer) async throws(SyncFailure) -> SyncConfiguration in
            let group = GroupID.random()
            let device = DeviceIdentity.generate(name: deviceName)
            let secrets = GroupSecrets.new()
            let genesis: Roster
            do {
                genesis = try Roster.genesis(group: group, founder: device)
            } catch {
                throw .damaged("the group's first roster could not be made: \(error)")
            }
            do throws(SyncServerError) {
                // The server keeps the genesis as the roster of epoch 0; the founder holds the
                // group's secrets itself, so no key wrap is needed until a second member joins.
                try await server.migrate()
                try await server.createGroup(group.bytes, genesis: genesis.encoded)
            } catch {
                throw .server(error)
            }
            let configuration = SyncConfiguration(server: address, group: group, genesisHash: genesis.hash, device: device,
                                                  membership: .member, secrets: secrets)
            try begin(configuration, genesis: genesis)
            return configuration
        }
    }

    /// `sync join`: posts a join request for the group on `server` (the only one there, or the
    /// one `groupHex` names) and keeps this device's keys; returns the code to compare with the
    /// member who approves. ``waitForApproval(timeout:)`` then waits for the approval.
    package func join(server address: String, groupHex: String?, deviceName: String) async throws(SyncFailure) -> JoinCode {
        guard try item.load() == nil else { throw .alreadyConfigured }
        return try await Self.withServer(address, logger: logger) { (server: SyncServer) async throws(SyncFailure) -> JoinCode in
            let group: GroupID
            let rosters: [(epoch: Int64, roster: Data)]
            do {
                let groups = try await server.groups()
                if let groupHex {
                    guard let named = GroupID(hex: groupHex), groups.contains(named.bytes) else {
                        throw SyncFailure.usage("the server has no sync group \(groupHex)")
                    }
                    group = named
                } else {
                    guard let only = groups.first else { throw SyncFailure.usage("the server has no sync group yet (keychainctl sync setup on the first machine)") }
                    guard groups.count == 1, let id = GroupID(hex: Hex.string(only)) else {
                        throw SyncFailure.usage("the server holds \(groups.count) sync groups; name one with --group (keychainctl sync status on a member shows it)")
                    }
                    group = id
                }
                rosters = try await server.rosters(group.bytes, after: -1)
            } catch let failure as SyncFailure {
                throw failure
            } catch let error as SyncServerError {
                throw .server(error)
            } catch {
                throw .damaged("\(error)")
            }
            guard let first = rosters.min(by: { $0.epoch < $1.epoch }) else { throw .usage("the sync group has no roster on the server") }
            let genesis: Roster
            do throws(SyncRejection) {
                genesis = try Roster(encoded: first.roster)
                // Checks the genesis against itself: the code compared with the approver pins it.
                _ = try RosterChain(genesis: genesis, pinnedHash: genesis.hash)
            } catch {
                throw .rejected(error)
            }
            let device = DeviceIdentity.generate(name: deviceName)
            let request: JoinRequest
            do {
                request = try JoinRequest.make(group: group, genesisHash: genesis.hash, device: device)
            } catch {
                throw .damaged("the join request could not be made: \(error)")
            }
            do throws(SyncServerError) {
                try await server.postJoinRequest(group.bytes, device: device.publicIdentity.id.bytes, request: request.encoded)
            } catch {
                throw .server(error)
            }
            let configuration = SyncConfiguration(server: address, group: group, genesisHash: genesis.hash, device: device,
                                                  membership: .joining, secrets: nil)
            try begin(configuration, genesis: genesis)
            return request.code
        }
    }

    /// Waits until a member approved this device and its keys arrived (true), or `timeout`
    /// passed (false).
    package func waitForApproval(timeout: Duration) async throws(SyncFailure) -> Bool {
        var session = try SyncSession.load(files: files, store: store)
        return try await Self.withServer(session.configuration.server, logger: logger) { (server: SyncServer) async throws(SyncFailure) -> Bool in
            let deadline = ContinuousClock.now + timeout
            while true {
                try await session.refreshMembership(server: server, logger: logger)
                if session.configuration.membership == .member, session.configuration.secrets != nil { return true }
                guard ContinuousClock.now < deadline else { return false }
                try? await Task.sleep(for: .milliseconds(300))
                if Task.isCancelled { return false }
            }
        }
    }

    /// Keeps a new configuration and the state that goes with it, and turns the log on.
    private func begin(_ configuration: SyncConfiguration, genesis: Roster) throws(SyncFailure) {
        SyncState.remove(files: files)
        let state = try SyncState.open(files: files)
        try state.saveRoster(genesis)
        try item.save(configuration)
        do {
            try store.startSyncLog()
        } catch {
            throw .keychain(error)
        }
    }

    /// `sync approve CODE`: admits the device whose pending join request has that code: a
    /// new roster with it, and the group's keys wrapped to every member of it.
    package func approve(code: JoinCode) async throws(SyncFailure) -> DevicePublicIdentity {
        var session = try SyncSession.load(files: files, store: store)
        return try await Self.withServer(session.configuration.server, logger: logger) { (server: SyncServer) async throws(SyncFailure) -> DevicePublicIdentity in
            try await session.refreshMembership(server: server, logger: logger)
            guard session.isMember, var secrets = session.configuration.secrets else { throw .usage("this device is not an approved member yet") }
            let group = session.configuration.group
            let pending: [(device: Data, request: Data)]
            do throws(SyncServerError) {
                pending = try await server.joinRequests(group.bytes)
            } catch {
                throw .server(error)
            }
            var match: JoinRequest?
            for entry in pending {
                guard let request = try? JoinRequest(encoded: entry.request) else { continue }
                guard request.group == group, request.genesisHash == session.configuration.genesisHash,
                      request.device.id.bytes == entry.device else { continue }
                if request.code == code { match = request }
            }
            guard let request = match else {
                throw .usage("no device waiting to join has the code \(code); check it on the joining machine (a code is for one join)")
            }
            let next: Roster
            do {
                next = try session.chain.current.adding(request.device, signer: session.configuration.device)
            } catch {
                throw .damaged("the roster could not be extended: \(error)")
            }
            _ = secrets.advanceKeepingKey()
            try await publish(next, secrets: secrets, session: &session, server: server)
            do {
                try await server.removeJoinRequest(group.bytes, device: request.device.id.bytes)
            } catch {
                logger.warning("the approved join request stays on the server", metadata: ["reason": "\(error)"])
            }
            return request.device
        }
    }

    /// `sync remove DEVICE`: a new roster without it and a new group key, wrapped to the
    /// members that remain, so that it cannot read anything written after. Of its records, the
    /// roster vouches for those that hold the latest version this member knows of an item,
    /// after reading every record the server has; every member rejects any other record of it,
    /// so what it signs after its removal (it still holds the old key and its signing key)
    /// never counts.
    package func remove(device: String) async throws(SyncFailure) -> DevicePublicIdentity {
        // After a pass of this keychain's agent, if one is under way; none starts until done.
        let passing = try await SyncLockFile.wait(for: .pass, files: files)
        defer { withExtendedLifetime(passing) {} }
        var session = try SyncSession.load(files: files, store: store)
        return try await Self.withServer(session.configuration.server, logger: logger) { (server: SyncServer) async throws(SyncFailure) -> DevicePublicIdentity in
            try await session.refreshMembership(server: server, logger: logger)
            guard session.isMember, session.configuration.secrets != nil else { throw .usage("this device is not an approved member") }
            let target = try Self.member(named: device, in: session.chain.current)
            guard target.id != session.me else { throw .usage("to take this device out of the group, use keychainctl sync leave") }
            try await rotate(removing: target.id, session: &session, server: server)
            return target
        }
    }

    /// `sync leave`: takes this device out (a roster without it, a new key for the others),
    /// turns the log off and forgets the configuration and state. The synced items stay in
    /// this keychain; they no longer sync.
    ///
    /// The leaving device signs its own removal and makes the others' new key: it is honest by
    /// definition, as it could have kept writing as a member. Like any removal, the roster
    /// vouches for its records that stay valid, after it sent its last changes and read
    /// everything.
    package func leave() async throws(SyncFailure) {
        let passing = try await SyncLockFile.wait(for: .pass, files: files)
        defer { withExtendedLifetime(passing) {} }
        var session = try SyncSession.load(files: files, store: store)
        if session.isMember, session.configuration.secrets != nil, session.chain.current.members.count > 1 {
            try await Self.withServer(session.configuration.server, logger: logger) { (server: SyncServer) async throws(SyncFailure) in
                try await session.refreshMembership(server: server, logger: logger)
                if session.isMember {
                    try await rotate(removing: session.me, session: &session, server: server)
                }
            }
        }
        try forget()
    }

    /// Forgets this keychain's sync configuration and state without telling the server (a
    /// device removed by another member, or a server that is gone).
    package func forget() throws(SyncFailure) {
        do {
            try store.stopSyncLog()
        } catch {
            throw .keychain(error)
        }
        try item.delete()
        SyncState.remove(files: files)
    }

    /// How many times a removal reads the group again when records keep arriving before it
    /// can publish.
    static let removalAttempts = 5

    /// Removes `target` (this device itself when it leaves): sends this member's changes and
    /// reads every record the server holds (a pass), makes the roster vouching for the
    /// target's records among the latest versions known here, and publishes it only if no
    /// record reached the group since the pass read; otherwise reads again and retries.
    private func rotate(removing target: DeviceID, session: inout SyncSession,
                        server: SyncServer) async throws(SyncFailure) {
        for _ in 0..<Self.removalAttempts {
            let pass = try await SyncAgent(files: files, store: store, logger: logger).pass(server: server)
            guard !pass.pull.stopped else {
                throw .usage("this member could not read every record of the group (is the keychain locked?); unlock it and run the command again")
            }
            session = try SyncSession.load(files: files, store: store)
            guard session.isMember, var secrets = session.configuration.secrets else { throw .usage("this device is not an approved member") }
            guard session.chain.current.member(target) != nil else { throw .usage("that device is no longer a member of the group") }
            let readThrough = try session.state.integer(.cursor)
            let next: Roster
            do {
                next = try session.chain.current.removing(target, vouching: try session.state.vouchedRecords(of: target),
                                                          signer: session.configuration.device)
            } catch let failure as SyncFailure {
                throw failure
            } catch {
                throw .damaged("the roster could not be changed: \(error)")
            }
            _ = secrets.rotate()
            await beforePublishingRemoval?()
            do {
                try await publish(next, secrets: secrets, session: &session, server: server, readThrough: readThrough)
                return
            } catch .server(.recordsAppended) {
                logger.info("records reached the group during the removal; reading them and trying again")
            }
        }
        throw .usage("records keep reaching the sync group; run the command again")
    }

    /// Publishes `next` with the keys wrapped to each of its members, then keeps both here.
    /// With `readThrough`, only if the server holds no record after that sequence.
    private func publish(_ next: Roster, secrets: GroupSecrets, session: inout SyncSession,
                         server: SyncServer, readThrough: Int64? = nil) async throws(SyncFailure) {
        let group = session.configuration.group
        var wraps: [(device: Data, wrap: Data)] = []
        do {
            for member in next.members {
                let wrap = try KeyWrap.wrap(secrets, epoch: next.epoch, group: group, to: member, by: session.configuration.device)
                wraps.append((member.id.bytes, wrap.encoded))
            }
        } catch {
            throw .damaged("the group's keys could not be wrapped: \(error)")
        }
        do {
            try await server.publishRoster(group.bytes, epoch: Int64(bitPattern: next.epoch), roster: next.encoded, wraps: wraps,
                                           readThrough: readThrough)
        } catch .alreadyExists {
            // Or a database role appended a roster of that epoch that no member signed, which
            // members reject and only the database's owner can delete.
            throw .usage("""
                another member changed the group at the same moment; run the command again (when it keeps \
                saying so, the sync server holds a roster of key epoch \(next.epoch) that no member signed: \
                the database's owner must delete it)
                """)
        } catch {
            throw .server(error)
        }
        do {
            try session.chain.append(next)
        } catch {
            throw .rejected(error)
        }
        try session.state.saveRoster(next)
        session.configuration.secrets = secrets
        try item.save(session.configuration)
    }

    /// The member `name` names: its full id in hex, the start of it (as `sync status` shows),
    /// or its name when only one member has it.
    static func member(named name: String, in roster: Roster) throws(SyncFailure) -> DevicePublicIdentity {
        let lowered = name.lowercased()
        let byID = roster.members.filter { member in
            lowered.count >= 4 && member.id.hex.hasPrefix(lowered)
        }
        if byID.count == 1, let only = byID.first { return only }
        let byName = roster.members.filter { $0.name == name }
        if byName.count == 1, let only = byName.first { return only }
        if byID.count + byName.count > 1 { throw .usage("several members match \(name); give more of the device id") }
        throw .usage("no member of the group is \(name) (keychainctl sync status lists them)")
    }
}
