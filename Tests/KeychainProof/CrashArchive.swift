import Foundation
import Security
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The archive iterations of the keychain crash run: `keychainctl export-archive` and
/// `keychainctl import-archive`, real client processes, killed at random moments while
/// another process writes items.
///
/// After a killed export the archive file is absent, or the previous or the new archive
/// whole: an uninterrupted import of it into a fresh keychain succeeds and yields only whole
/// items. A killed import into another fresh keychain leaves none of the archive's items or
/// all of them, as that uninterrupted import read them.
struct CrashArchive {
    let keychainctl: URL
    let dataHome: URL
    static let password = "archive-password"

    var archive: URL { dataHome.appendingPathComponent("crash.archive") }
    var folder: URL { dataHome.appendingPathComponent("keychains") }

    /// Runs keychainctl with the archive's password on standard input.
    func start(_ arguments: [String]) throws -> SpawnedProcess {
        let input = dataHome.appendingPathComponent("archive-password")
        if !FileManager.default.fileExists(atPath: input.path) {
            guard FileManager.default.createFile(atPath: input.path, contents: Data(Self.password.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw ProofFailure("cannot write \(input.path)")
            }
        }
        return try SpawnedProcess(keychainctl.path, arguments + ["--password-stdin"],
                                  environment: ProgramProcess.environment(dataHome: dataHome),
                                  stdin: .open(input.path, O_RDONLY), stdout: .open("/dev/null", O_WRONLY),
                                  stderr: .open("/dev/null", O_WRONLY))
    }

    func export() throws -> SpawnedProcess { try start(["export-archive", "-o", archive.path]) }

    func importInto(_ name: String) throws -> SpawnedProcess {
        try start(["import-archive", "-k", name, archive.path])
    }

    /// A new keychain without a password, named `name`.
    func create(_ name: String) throws {
        try inKeychain(name) {
            var keychain: SecKeychain?
            let status = SecKeychainCreate(name, 0, nil, false, nil, &keychain)
            guard status == errSecSuccess else { throw ProofFailure("cannot create \(name): \(status)") }
        }
    }

    /// Every item of the crash groups in keychain `name`, by group and account, each with
    /// its token; nil with the reason when one is not whole or cannot be read.
    func items(of name: String) throws -> (items: [String: [String: String]], problem: String?) {
        try inKeychain(name) {
            var found: [String: [String: String]] = [:]
            for group in CrashWriter.groups {
                let stored = ProofItems.readAll(service: group)
                guard stored.status == errSecSuccess else { return ([:], "reading \(group) gave \(stored.status)") }
                for (account, item) in stored.items {
                    guard item.isWhole, let token = item.secret else { return ([:], "\(group)/\(account) is half written") }
                    found[group, default: [:]][account] = token
                }
            }
            return (found, nil)
        }
    }

    func inKeychain<T>(_ name: String, _ body: () throws -> T) throws -> T {
        try KeychainEnvironment.withValue(
            KeychainEnvironment(directory: folder, keychainName: name, accessGroups: [CrashRun.accessGroup]), operation: body)
    }

    /// The archive file's identity and time of change, to tell whether an export replaced it.
    func archiveVersion() -> String? {
        var info = stat()
        guard stat(archive.path, &info) == 0 else { return nil }
        return "\(info.st_ino) \(info.st_mtim.tv_sec) \(info.st_mtim.tv_nsec)"
    }

    /// Checks the archive after a killed export (`exportOutcome`: applied, absent, or none
    /// when it ended before the kill), then kills an import of it. The kinds and outcomes to
    /// count, or the problem found.
    func check(iteration: Int, exportOutcome: String,
               delay: () -> UInt32) throws -> (results: [(kind: String, outcome: String)], problem: String?) {
        let exported = ("export-archive", exportOutcome)
        guard FileManager.default.fileExists(atPath: archive.path) else { return ([exported], nil) }
        let reference = "reference-\(iteration)", target = "target-\(iteration)"
        try create(reference)
        let whole = try importInto(reference).wait()
        guard whole.status == 0 else {
            return ([], "the archive left by a killed export does not import (status \(whole.status))")
        }
        let expected = try items(of: reference)
        if let problem = expected.problem { return ([], "the archive's import: \(problem)") }
        try create(target)
        let importing = try importInto(target)
        usleep(delay())
        importing.kill()
        let ended = importing.wait()
        let observed = try items(of: target)
        if let problem = observed.problem { return ([exported], "after a kill during import-archive, \(problem)") }
        let imported = observed.items.filter { !$0.value.isEmpty }
        let all = expected.items.filter { !$0.value.isEmpty }
        if imported.isEmpty && ended.signalled && !all.isEmpty {
            return ([exported, ("import-archive", "absent")], nil)
        }
        guard imported == all else {
            let count = imported.values.reduce(0) { $0 + $1.count }, total = all.values.reduce(0) { $0 + $1.count }
            let how = ended.signalled ? "after a kill during import-archive" : "after import-archive ended with status \(ended.status)"
            return ([exported], "\(how), the keychain holds \(count) of the archive's \(total) items")
        }
        return ([exported, ("import-archive", ended.signalled ? "applied" : "none")], nil)
    }
}
