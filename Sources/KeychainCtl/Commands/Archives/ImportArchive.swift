import ArgumentParser
import Foundation
import Security

/// `import-archive`: the items of an archive that `export-archive` wrote, into a keychain.
struct ImportArchive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-archive",
        abstract: "Import the items of an encrypted archive into a keychain.",
        discussion: """
            The archive's password is asked for without echo (password to open <file>: ), or read \
            with --password-stdin; a wrong one is errSecAuthFailed (exit status 51). Items keep \
            their attributes, dates, access groups and data. All of them are imported or, on any \
            error, none. An item the keychain already holds (same class, key attributes, access \
            group and synchronizable flag) is, by --on-duplicate: fail, the default, nothing is \
            imported and the error says how many items collide (errSecDuplicateItem, exit status \
            45); keep, the keychain's item stays and the archived one is skipped; replace, the \
            archived one takes its place. On success, standard error shows imported: <n>, \
            replaced: <n>, skipped: <n>.

            The file must be a regular file or a pipe: a folder, a device (/dev/null) or an empty \
            file is refused, saying so, before the password is asked for (exit status 1).
            """)

    @OptionGroup var keychain: ArchiveKeychainOption

    @Option(name: .customLong("on-duplicate"),
            help: ArgumentHelp("What to do with items the keychain already holds: fail, keep or replace.",
                               valueName: "policy"))
    var onDuplicate: DuplicatePolicy = .fail

    @OptionGroup var password: StandardInputPassword

    @Argument(help: ArgumentHelp("The archive, as export-archive wrote it.", valueName: "file"))
    var file: String

    /// Far above the archive of a keychain of a million items; a larger file is not one.
    static let largestArchive = 1 << 30

    func run() throws {
        let store = try keychain.open()
        let archive = try BoundedFile.read(file, limit: Self.largestArchive)
        guard !archive.isEmpty else { throw ToolFailure.other("cannot read \(file): it is empty, not an archive") }
        let secret = try password.read() ?? PasswordPrompt.password("password to open \(file): ")
        let report: SecArchiveImportCounts
        do {
            report = try store.importArchive(archive, password: secret, policy: onDuplicate.importPolicy)
        } catch let error where error.status == errSecDuplicateItem && onDuplicate == .fail {
            throw collision(in: store, archive: archive, password: secret)
        } catch {
            // Said in full: an archive that asks for too much work says how much.
            if let reason = error.parameterReason {
                throw ToolFailure(message: "keychainctl: import-archive: \(reason)",
                                  exitStatus: ExitStatus.code(for: errSecParam))
            }
            throw keychain.location.hinted(ToolFailure.status(error.status, during: "import-archive"))
        }
        ConsoleOutput.error("imported: \(report.imported), replaced: \(report.replaced), skipped: \(report.skipped)")
    }

    /// The failure of an import that met items the keychain holds, with how many: a dry run
    /// that keeps them counts them as skipped.
    private func collision(in store: SecKeychain, archive: Data, password: Data) -> ToolFailure {
        let failure = ToolFailure.status(errSecDuplicateItem, during: "import-archive")
        guard let report = try? store.importArchive(archive, password: password, policy: .keepExisting, dryRun: true)
        else { return failure }
        let total = report.imported + report.skipped
        return ToolFailure(
            message: "\(failure.message) The keychain holds \(report.skipped) of the archive's \(total) "
                + "\(total == 1 ? "item" : "items") already; nothing was imported "
                + "(--on-duplicate keep or replace imports the others).",
            exitStatus: failure.exitStatus)
    }
}
