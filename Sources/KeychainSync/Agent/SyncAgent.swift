import Foundation
import KeychainCore
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The long-lived process that syncs one keychain (`keychainctl sync run`): one per keychain,
/// enforced with a lock file. It passes (membership, push, pull) when the keychain changes,
/// when the server notifies a change, and at least every `interval` as a fallback; after a
/// failure (server unreachable, keychain locked) it waits with exponential backoff. Programs
/// that use the keychain never wait for it: their writes only append to the keychain's change
/// log in their own transaction.
package final class SyncAgent: Sendable {
    package let files: KeychainFiles
    /// The process's store of the keychain (see ``SyncKeychain/open(databasePath:)``).
    let store: KeychainStore
    let logger: Logger
    let interval: Duration

    package init(files: KeychainFiles, store: KeychainStore, logger: Logger, interval: Duration = .seconds(30)) {
        self.files = files
        self.store = store
        self.logger = logger
        self.interval = interval
    }

    /// What one pass did.
    package struct PassReport: Sendable {
        package var sent = 0
        package var pull = SyncSession.PullReport()
        /// Whether the pass checked the server's completeness (the summary query).
        package var checkedCompleteness = false
        /// What the check of the server's completeness found and healed.
        package var healing = SyncSession.HealingReport()
    }

    /// One pass: membership, then the local changes out, then the other members' in (again
    /// out when a local change came in between), then, when `checkCompleteness` is true, the
    /// check that the server still holds everything (healed when it does not: a restored
    /// backup, dropped rows). That check reads every item this member knows and makes the
    /// server digest all of the group's records, so the run loop makes it once per `interval`
    /// rather than at each pass a single change wakes. Without it, a server whose highest
    /// record number is below this member's cursor (a rollback the pull can see, for the cost
    /// of one indexed query) still gets the full check at once.
    package func pass(server: SyncServer, checkCompleteness: Bool = true) async throws(SyncFailure) -> PassReport {
        var session = try SyncSession.load(files: files, store: store)
        try await session.refreshMembership(server: server, logger: logger)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let lastSync = try session.state.integer(.lastSync)
        var report = PassReport()
        for _ in 0..<4 {
            report.sent += try await session.push(server: server, logger: logger)
            let pull = try await session.pull(server: server, logger: logger)
            report.pull.applied += pull.applied
            report.pull.rejected += pull.rejected
            report.pull.stopped = pull.stopped
            // Again only for a local change that must go out first: a locked keychain or a
            // key not received yet would stop the pull at the same record.
            if !pull.localChangeFirst { break }
        }
        // Not from a server that had lost the whole group: every item is missing there, and
        // their absence is that loss, which the check below heals, not their deletion.
        if lastSync > 0, now - lastSync > TombstoneRetention.reconcileAfter, !session.madeGroupAgain {
            report.pull.applied += try await session.reconcileAfterLongAbsence(server: server, logger: logger)
        }
        var check = checkCompleteness
        if !check, session.isMember, session.configuration.secrets != nil {
            let top: Int64
            do {
                top = try await server.maxSequence(session.configuration.group.bytes)
            } catch {
                throw .server(error)
            }
            check = top < (try session.state.integer(.cursor))
        }
        if check {
            report.checkedCompleteness = true
            report.healing = try await session.healServerRecords(server: server, logger: logger, now: now)
            report.pull.applied += report.healing.applied
            if report.healing.pullStopped { report.pull.stopped = true }
        }
        try await session.collectExpiredTombstones(server: server, now: now, logger: logger)
        try session.state.set(.lastSync, now)
        return report
    }

    /// Runs until the task is cancelled (SIGTERM and SIGINT cancel it in keychainctl).
    package func run(once: Bool = false) async throws(SyncFailure) {
        guard let lock = try SyncLockFile.take(.agent, files: files) else {
            throw .usage("another sync agent is running for this keychain (it holds "
                         + "\(files.directory.appendingPathComponent("\(files.name).\(SyncLockFile.Kind.agent.rawValue)").path))")
        }
        defer { withExtendedLifetime(lock) {} }
        let session = try SyncSession.load(files: files, store: store)
        let address: SyncServerAddress
        do {
            address = try SyncServerAddress(parsing: session.configuration.server)
        } catch {
            throw .server(error)
        }
        let group = session.configuration.group
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let watcher = KeychainChangeWatcher(directory: files.directory, databaseName: files.database.lastPathComponent) {
            wake.yield()
        }
        defer { watcher?.stop() }
        var server: SyncServer?
        var listening: Task<Void, Never>?
        defer { listening?.cancel() }
        // The completeness check (see ``pass(server:checkCompleteness:)``) runs at the first
        // pass, at each of the ticker's wake-ups, after a failure, and at any pass when the
        // last one is `interval` old: a restored backup or dropped rows are noticed within one
        // interval, while a pass woken by a single change stays as cheap as that change.
        let checkDue = CheckDue()
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                checkDue.set()
                wake.yield()
            }
        }
        defer { ticker.cancel() }
        var backoff = Duration.milliseconds(250)
        var iterator = wakeups.makeAsyncIterator()
        var lastCheck: ContinuousClock.Instant?
        // Said once per start: a role that can delete other members' rows.
        var roleChecked = false
        // What ends the loop with a failure; the connection is closed before it is thrown.
        var ending: SyncFailure?
        while !Task.isCancelled {
            do {
                if server == nil {
                    do {
                        let connected = try await SyncServer.connect(address, logger: logger)
                        server = connected
                        if !roleChecked {
                            roleChecked = true
                            if let warning = await ServerRoleCheck.warning(for: connected) { logger.warning("\(warning)") }
                        }
                        if !once {
                            let changes = await connected.changes(group.bytes)
                            listening = Task {
                                for await _ in changes { wake.yield() }
                            }
                        }
                    } catch {
                        throw SyncFailure.server(error)
                    }
                }
                guard let server else { continue }
                // A removal run beside this agent (sync remove, leave) passes too: one at a time.
                // The lock is given back as soon as the pass ends, before waiting for the next
                // wake-up: held across that wait, a removal polling for it found it free only
                // in the instant between two waits, and waited minutes.
                let report: PassReport
                do {
                    let passing = try await SyncLockFile.wait(for: .pass, files: files)
                    defer { passing.unlock() }
                    let check = checkDue.take() || lastCheck.map { ContinuousClock.now - $0 >= interval } ?? true
                    report = try await pass(server: server, checkCompleteness: check)
                }
                if report.checkedCompleteness { lastCheck = .now }
                if report.sent > 0 || report.pull.applied > 0 || report.pull.rejected > 0 {
                    logger.info("synced", metadata: ["sent": "\(report.sent)", "applied": "\(report.pull.applied)",
                                                     "rejected": "\(report.pull.rejected)"])
                }
                if let state = try? SyncState.open(files: files), (try? state.text(.lastProblem)) != nil {
                    try? state.set(.lastProblem, nil)
                }
                backoff = .milliseconds(250)
                if once { break }
                _ = await iterator.next()
            } catch {
                // Stopped (SIGTERM, SIGINT) while a call was under way: not a failure.
                if Task.isCancelled { break }
                let failure = error as? SyncFailure ?? .damaged("\(error)")
                switch failure {
                case .removed, .notConfigured, .forked:
                    ending = failure
                default:
                    break
                }
                try? SyncState.open(files: files).set(.lastProblem, failure.description)
                // What failed may have been the check, or have hidden a loss: the next pass checks.
                checkDue.set()
                if once { ending = failure }
                if ending != nil { break }
                logger.warning("sync pass failed; trying again", metadata: ["reason": "\(failure)", "in": "\(backoff)"])
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(30))
            }
        }
        listening?.cancel()
        await server?.close()
        if let ending { throw ending }
    }
}

/// Whether the agent's next pass checks the server's completeness: set by the interval ticker
/// and by a failure, taken by the pass.
private final class CheckDue: Sendable {
    private let due = Mutex(false)

    func set() {
        due.withLock { $0 = true }
    }

    /// Whether it was set, clearing it.
    func take() -> Bool {
        due.withLock { due in
            defer { due = false }
            return due
        }
    }
}
