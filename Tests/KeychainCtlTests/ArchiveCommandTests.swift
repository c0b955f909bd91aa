import Foundation
import Testing
import TestTags
import TestSupport

/// export-archive and import-archive: a keychain's items carried to another keychain in an
/// encrypted file. Keychains without passwords; each archive password runs scrypt once.
@Suite struct ArchiveCommandTests {
    let keychainctl = Keychainctl()
    let archive = TestScratch.folder("archive").appendingPathComponent("work.archive")

    /// `work` with two items, exported to `archive` under "archive pw".
    func exportWork() throws {
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try keychainctl("create-keychain", "-p", "", "work", "home")
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "archived", "work")
        try keychainctl("add-internet-password", "-a", "bob", "-s", "example.com", "-r", "htps", "-w", "web", "work")
        let exported = try keychainctl("export-archive", "-k", "work", "-o", archive.path, "--password-stdin",
                                       input: "archive pw\n")
        #expect(exported.status == 0 && exported.output.isEmpty && exported.errors.isEmpty)
    }

    func importInto(_ keychain: String, _ options: String..., password: String = "archive pw") throws
        -> (status: Int32, errors: String)
    {
        let outcome = try keychainctl.program.run(
            ["import-archive", "-k", keychain, "--password-stdin"] + options + [archive.path],
            input: password, dataHome: keychainctl.dataHome)
        #expect(outcome.output.isEmpty)
        return (outcome.status, outcome.errors)
    }

    @Test func anExportedItemIsImportedIntoAnotherKeychainThroughThePrompts() throws {
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try keychainctl("create-keychain", "-p", "", "work", "home")
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "archived", "-j", "a note", "work")
        let exported = try keychainctl.onTerminal("export-archive", "-k", "work", "-o", archive.path, answering: [
            ("password for new archive: ", "archive pw"), ("retype password for new archive: ", "archive pw"),
        ])
        #expect(exported.status == 0)
        #expect(exported.terminal == "password for new archive: \r\nretype password for new archive: \r\n")
        #expect(exported.output.isEmpty && exported.errors.isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: archive.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try !Data(contentsOf: archive).contains(Data("archived".utf8)))

        let imported = try keychainctl.onTerminal("import-archive", "-k", "home", archive.path,
                                                  answering: [("password to open \(archive.path): ", "archive pw")])
        #expect(imported.status == 0)
        #expect(imported.output.isEmpty)
        #expect(imported.errors == "imported: 1, replaced: 0, skipped: 0\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "home").output == "archived\n")
        let block = try keychainctl("find-generic-password", "-a", "alice", "home").output
        #expect(block.contains("    \"icmt\"<blob>=\"a note\"\n"))
    }

    /// Files the tool writes: an archive written over a symbolic link replaces the link and
    /// leaves its target alone, and the new file is the owner's alone.
    @Test func anArchiveWrittenOverALinkReplacesTheLinkNotItsTarget() throws {
        let target = archive.deletingLastPathComponent().appendingPathComponent("target")
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: archive.path, withDestinationPath: target.path)
        try exportWork()
        #expect(try Data(contentsOf: target) == Data("keep me".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: archive.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try importInto("home").status == 0)
    }

    @Test(.tags(.slow)) func byDefaultADuplicateImportsNothingAndSaysHowManyCollide() throws {
        try exportWork()
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "local", "home")
        let failed = try importInto("home")
        #expect(failed.status == 45)   // errSecDuplicateItem, -25299
        #expect(failed.errors == """
            keychainctl: import-archive: The specified item already exists in the keychain. The keychain holds 1 \
            of the archive's 2 items already; nothing was imported (--on-duplicate keep or replace imports the others).

            """)
        #expect(try keychainctl("find-internet-password", "-a", "bob", "home").status == 44)

        #expect(try importInto("home", "--on-duplicate", "keep") == (0, "imported: 1, replaced: 0, skipped: 1\n"))
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "home").output == "local\n")
        #expect(try keychainctl("find-internet-password", "-a", "bob", "-w", "home").output == "web\n")
    }

    @Test(.tags(.slow)) func replaceTakesTheArchivedItemAndAWrongPasswordExits51() throws {
        try exportWork()
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "local", "home")
        let wrong = try importInto("home", "--on-duplicate", "replace", password: "not it")
        #expect(wrong.status == 51)
        #expect(wrong.errors == "keychainctl: import-archive: The user name or passphrase you entered is not correct.\n")
        #expect(try importInto("home", "--on-duplicate", "replace") == (0, "imported: 1, replaced: 1, skipped: 0\n"))
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "home").output == "archived\n")
    }

    @Test func aLockedKeychainDoesNotExportAndAnArchiveNeedsAPassword() throws {
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "pw")
        let empty = try keychainctl("export-archive", "-o", archive.path, "--password-stdin", input: "")
        #expect(empty.status == 206)   // errSecParam, -50
        #expect(empty.errors == "keychainctl: export-archive: an archive needs a password\n")
        try keychainctl("lock-keychain")
        let locked = try keychainctl("export-archive", "-o", archive.path, "--password-stdin", input: "archive pw")
        #expect(locked.status == 36)
        #expect(locked.errors == """
            keychainctl: export-archive: User interaction is not allowed.
            keychainctl: the keychain login is locked; unlock it with: keychainctl unlock-keychain login

            """)
        #expect(!FileManager.default.fileExists(atPath: archive.path))

        let missing = try keychainctl("import-archive", "-k", "nowhere", "--password-stdin", archive.path, input: "pw")
        #expect(missing.status == 50)
        #expect(missing.errors == "keychainctl: SecKeychainOpen nowhere: The specified keychain could not be found.\n")
        let noFile = try keychainctl("import-archive", "--password-stdin", archive.path, input: "pw")
        #expect(noFile.status == 1)
        #expect(noFile.errors.hasPrefix("keychainctl: cannot read \(archive.path): "))
    }

    /// An archive whose scrypt parameters ask for more than the bound is refused before any
    /// key is derived, with errSecParam's exit status and a message that says how much it
    /// asked: the reason reaches the user, not only the status. The header is changed as
    /// someone with the file would, and its trailer rehashed with openssl's SHA-256, so that
    /// the archive gets past the damage check to the bound.
    @Test func anArchiveAskingForMoreThanTheScryptBoundIsRefusedSayingHowMuch() throws {
        try exportWork()
        var bytes = [UInt8](try Data(contentsOf: archive))
        // After the magic (8 bytes) and the version (2): log2 N, r, p. 2^22 · 32 · 128 bytes is 16 GiB.
        bytes[10] = 22
        bytes[11] = 32
        let body = archive.deletingLastPathComponent().appendingPathComponent("body")
        let trailer = archive.deletingLastPathComponent().appendingPathComponent("trailer")
        try Data(bytes.dropLast(32)).write(to: body)
        let openssl = try SpawnedProcess("/usr/bin/openssl", ["dgst", "-sha256", "-binary", "-out", trailer.path, body.path],
                                         environment: [:], stdin: .open("/dev/null", 0))
        #expect(openssl.wait().status == 0)
        try (Data(bytes.dropLast(32)) + Data(contentsOf: trailer)).write(to: archive)

        let refused = try importInto("home")
        #expect(refused.status == 206)   // errSecParam, -50
        #expect(refused.errors.hasPrefix(
            "keychainctl: import-archive: the archive asks for more than the bound allows: scrypt N=2^22, r=32, p="))
        #expect(refused.errors.contains("16384 MiB"))
    }
}
