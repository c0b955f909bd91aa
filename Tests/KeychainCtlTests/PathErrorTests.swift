import Foundation
import Testing
import TestSupport

/// Errors about the paths the user gives: what is wrong with the path (a folder, a device,
/// an empty file, a missing folder), never only a status that names none of it.
@Suite struct PathErrorTests {
    let keychainctl = Keychainctl()
    let scratch = TestScratch.folder("paths")

    init() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    @Test("import-archive says the archive is a device, a folder or empty, before asking for its password")
    func importArchiveNamesWhatTheFileIs() throws {
        let empty = scratch.appendingPathComponent("empty.archive").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for (file, reason) in [
            ("/dev/null", "it is a device or a socket, not a file"),
            ("/dev/zero", "it is a device or a socket, not a file"),
            (scratch.path, "it is a folder, not a file"),
            (empty, "it is empty, not an archive"),
            (scratch.appendingPathComponent("missing").path, "No such file or directory"),
        ] {
            // No --password-stdin: were the password asked for, the prompt would fail on /dev/null.
            let outcome = try keychainctl("import-archive", file)
            #expect(outcome.status == 1, "\(file)")
            #expect(outcome.errors == "keychainctl: cannot read \(file): \(reason)\n", "\(file)")
        }
    }

    @Test("export-archive says the output is a folder, a device or in a missing folder, before anything is read")
    func exportArchiveNamesWhatIsWrongWithTheOutput() throws {
        let missingFolder = scratch.appendingPathComponent("missing")
        for (file, reason) in [
            (scratch.path, "\(scratch.path) is a folder"),
            ("/dev/null", "/dev/null is not a regular file (a device, a pipe or a socket)"),
            (missingFolder.appendingPathComponent("work.archive").path, "there is no folder \(missingFolder.path)"),
        ] {
            let outcome = try keychainctl("export-archive", "-o", file)
            #expect(outcome.status == 1, "\(file)")
            #expect(outcome.errors == "keychainctl: cannot write \(file): \(reason)\n", "\(file)")
        }
        // Nothing was created, not even the default keychain.
        #expect(!FileManager.default.fileExists(atPath: keychainctl.loginPath))
    }

    @Test("create-keychain says which folder is missing, is a file, or is open to others, and the status")
    func createKeychainNamesTheFolder() throws {
        let notAvailable = "(No keychain is available. You may need to restart your computer.)"
        let proc = try keychainctl("create-keychain", "-p", "", "/proc/nope/kc")
        #expect(proc.status == 53)   // errSecNotAvailable, -25291
        // One line: the library's own log line for the failure is not shown unless asked for.
        #expect(proc.errors == "keychainctl: SecKeychainCreate /proc/nope/kc: there is no folder /proc/nope, "
            + "and none can be created in /proc \(notAvailable)\n")

        let file = scratch.appendingPathComponent("a-file")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
        let underFile = try keychainctl("create-keychain", "-p", "", file.path + "/kc")
        #expect(underFile.status == 53)
        #expect(underFile.errors == "keychainctl: SecKeychainCreate \(file.path)/kc: \(file.path) is not a folder \(notAvailable)\n")

        let open = scratch.appendingPathComponent("open-to-all")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        #expect(chmod(open.path, 0o777) == 0)
        let shared = try keychainctl("create-keychain", "-p", "", open.path + "/kc")
        #expect(shared.status == 53)
        #expect(shared.errors.contains("the folder \(open.path) belongs to another user or others may write in it (mode 777)"))
        // The library changed nothing it did not create.
        let mode = try FileManager.default.attributesOfItem(atPath: open.path)[.posixPermissions] as? Int
        #expect(mode == 0o777)
    }

    @Test("A keychain that cannot be opened is reported with the reason: its mode, or that it is no keychain")
    func openingNamesWhyTheKeychainIsUnavailable() throws {
        let notAvailable = "(No keychain is available. You may need to restart your computer.)"
        let path = scratch.appendingPathComponent("bad.keychain-db").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x5A, count: 4096),
                                               attributes: [.posixPermissions: 0o644]))
        let wrongMode = try keychainctl("find-generic-password", "-s", "x", path)
        #expect(wrongMode.status == 53)
        #expect(wrongMode.errors == "keychainctl: SecKeychainOpen \(path): the keychain database \(path) has mode 644; "
            + "it must be readable and writable by its owner only (chmod 600) \(notAvailable)\n")
        #expect(chmod(path, 0o600) == 0)
        let notAKeychain = try keychainctl("find-generic-password", "-s", "x", path)
        #expect(notAKeychain.status == 53)
        #expect(notAKeychain.errors == "keychainctl: SecKeychainOpen \(path): the keychain database is damaged or is not a keychain \(notAvailable)\n")
        // The library's own lines come back when asked for.
        let logged = try keychainctl.shell("KEYCHAINCTL_LOG_LEVEL=error \"$0\" find-generic-password -s x '\(path)'")
        #expect(logged.errors.contains("error swift-keychain:"))
    }

    @Test("A folder given as a keychain's path is refused as a folder: create-keychain creates nothing beside it, and other commands say it is no keychain")
    func aFolderIsNoKeychain() throws {
        let folder = scratch.appendingPathComponent("a-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let created = try keychainctl("create-keychain", "-p", "pw", folder.path)
        #expect(created.status == 53, "\(created)")   // errSecNotAvailable
        #expect(created.errors.hasPrefix("keychainctl: SecKeychainCreate \(folder.path): \(folder.path) is a folder, not a keychain; "
            + "name a keychain file in it, such as \(folder.path)/NAME.keychain-db"), "\(created.errors)")
        // Not `a-folder.keychain-db` and its siblings beside the folder.
        let beside = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("a-folder.") }
        #expect(beside.isEmpty, "\(beside)")
        let trailing = try keychainctl("create-keychain", "-p", "pw", folder.path + "/")
        #expect(trailing.status == 53 && trailing.errors.contains("is a folder, not a keychain"), "\(trailing)")

        let found = try keychainctl("find-generic-password", "-s", "x", folder.path)
        #expect(found.status == 50, "\(found)")   // errSecNoSuchKeychain
        #expect(found.errors.contains("\(folder.path) is a folder, not a keychain"), "\(found.errors)")
    }

    @Test("A machine id that is there but cannot be read says what is wrong and what to do, not only to restart the computer")
    func anUnreadableMachineIDSaysWhatToDo() throws {
        let notAFile = scratch.appendingPathComponent("machine-id-folder")
        try FileManager.default.createDirectory(at: notAFile, withIntermediateDirectories: true)
        let outcome = try keychainctl.shell("KEYCHAIN_MACHINE_ID_FILE='\(notAFile.path)' \"$0\" add-generic-password -a a -s s -w x")
        #expect(outcome.status == 53, "\(outcome)")
        #expect(outcome.errors.contains("this machine's id \(notAFile.path) is not a regular file: it must be a regular file "
            + "every user may read (chmod 444 \(notAFile.path)"), "\(outcome.errors)")
    }
}
