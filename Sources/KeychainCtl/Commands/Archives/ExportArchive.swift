import ArgumentParser
import Foundation
import Security

/// `export-archive`: a keychain's items, in one file sealed under a password of its own, to
/// move them to another keychain or machine, or to keep a backup. macOS's `security export`
/// writes keys and certificates in their formats; this is another operation, hence the name.
struct ExportArchive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-archive",
        abstract: "Export a keychain's items into an encrypted archive.",
        discussion: """
            Every item that may leave this machine (not the ThisDeviceOnly ones) of every program \
            is written, with its attributes and data, into one file sealed with AES-256-GCM under \
            a key derived from the archive's own password (scrypt). The password is asked for \
            twice without echo (password for new archive: , retype password for new archive: ), \
            or read with --password-stdin; it cannot be empty. The file is created readable by \
            you alone, and replaced if it exists; a folder or a device in its place, or a missing \
            folder, is refused, saying so, before the password is asked for (exit status 1). A \
            locked keychain does not export (errSecInteractionNotAllowed, exit status 36). \
            import-archive reads the file.

            An item that fails to open (its row damaged or altered) is left out: every other item \
            is exported, the file is written, and the skipped items are listed on standard error by \
            row, class and protection class; the exit status is then 93 (errSecDecode).
            """)

    @OptionGroup var keychain: ArchiveKeychainOption

    @Option(name: .customShort("o"), help: ArgumentHelp("The archive file to write.", valueName: "file"))
    var output: String

    @OptionGroup var password: StandardInputPassword

    func run() throws {
        // Before the password is asked for and the items read: a path that cannot take the
        // file fails now, saying why.
        if let problem = PathDiagnosis.creating(output, createsFolders: false) {
            throw ToolFailure.other("cannot write \(output): \(problem)")
        }
        let store = try keychain.open()
        let secret = try password.read()
            ?? PasswordPrompt.newPassword("password for new archive: ", retype: "retype password for new archive: ")
        guard !secret.isEmpty else {
            throw ToolFailure(message: "keychainctl: export-archive: an archive needs a password",
                              exitStatus: ExitStatus.code(for: errSecParam))
        }
        let export: SecArchiveExport
        do {
            export = try store.exportArchive(password: secret)
        } catch {
            throw keychain.location.hinted(ToolFailure.status(error.status, during: "export-archive"))
        }
        // Only the owner may read the archive, as only they may read the keychain; it is
        // on disk (synced) before the command says it succeeded.
        do {
            try SecPrivateFileWriter.write(export.archive, to: output)
        } catch {
            let reason = PathDiagnosis.creating(output, createsFolders: false) ?? error.reason ?? error.description
            throw ToolFailure.other("cannot write \(output): \(reason)")
        }
        try UnreadableItemsReport.check(export.skipped, during: "export-archive", othersWere: "exported")
    }
}
