import CKernelKeyring
import Crypto
import Foundation
import GRDB
import KeychainProof
import Security
import Testing
import TestSupport

/// A keychain's device key sealed to a TPM 2.0 (here a real swtpm on loopback ports): a new
/// keychain made while a TPM is selected keeps in `<name>.keychain-key` only a blob that
/// TPM unseals, so a copy of its folder opens nothing without that TPM; the key is unsealed
/// once per boot into the kernel keyring. Without a TPM the key file is 32 bytes, as before,
/// and keychainctl says which protection a keychain has. Every step runs keychainctl as its
/// own process, since the TPM is chosen from a process's environment.
@Suite("Device keys sealed to a TPM")
struct TPMSealedDeviceKeyTests {
    private static let keychainctl = ProgramProcess("keychainctl")
    private static let header = Data("swift-keychain device key sealed to a TPM 2.0, version 1\n".utf8)
    private static let notAvailableExit = Int32(UInt8(truncatingIfNeeded: errSecNotAvailable))

    /// Runs keychainctl on the keychains of `dataHome`, with `KEYCHAIN_TPM_TCTI` set to `tcti`.
    @discardableResult
    private static func run(_ arguments: [String], _ dataHome: URL, tcti: String,
                            more: [String: String?] = [:]) throws -> ProgramProcess.Outcome {
        try keychainctl.run(arguments, dataHome: dataHome,
                            environment: more.merging(["KEYCHAIN_TPM_TCTI": tcti]) { $1 })
    }

    /// A user's empty data folder.
    private static func dataHome() throws -> URL {
        let folder = TestScratch.folder("tpm-sealed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func keychains(_ dataHome: URL) -> URL { dataHome.appendingPathComponent("keychains") }

    /// Adds a generic password to the login keychain (made now, without a password).
    private static func addSecret(_ dataHome: URL, tcti: String, more: [String: String?] = [:]) throws {
        let added = try run(["add-generic-password", "-a", "alice", "-s", "example.com", "-w", "s3cret"], dataHome,
                            tcti: tcti, more: more)
        try #require(added.status == 0, "add-generic-password: \(added.errors)")
    }

    private static func findSecret(_ dataHome: URL, tcti: String, more: [String: String?] = [:]) throws -> ProgramProcess.Outcome {
        try run(["find-generic-password", "-a", "alice", "-s", "example.com", "-w"], dataHome, tcti: tcti, more: more)
    }

    /// Removes the keychain, and with it its unsealed key from the kernel keyring, where the
    /// test left one for the rest of the boot.
    private static func delete(_ dataHome: URL, tcti: String) {
        _ = try? run(["delete-keychain", "login"], dataHome, tcti: tcti)
    }

    /// Copies the keychain folder of `dataHome` into a new data folder, as someone with a
    /// copy of the disk would hold it.
    private static func copyOfFolder(_ dataHome: URL) throws -> URL {
        let copy = try Self.dataHome()
        try FileManager.default.copyItem(at: keychains(dataHome), to: keychains(copy))
        return copy
    }

    /// The keybag rows wrapped by the device key alone (`device`): the index key and class D,
    /// and every class of a keychain without a password.
    private static func deviceWrappedRows(_ dataHome: URL) throws -> [(name: String, wrapped: [UInt8])] {
        let copy = try copyOfFolder(dataHome)
        let queue = try DatabaseQueue(path: keychains(copy).appendingPathComponent("login.keychain-db").path)
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, wrapped FROM keybag WHERE wrapping = 'device'").map {
                (name: $0["name"], wrapped: [UInt8]($0["wrapped"] as Data))
            }
        }
    }

    /// Whether some 32 bytes of `file`, taken as the device key, open one of `rows` as the
    /// documented wrapping says (AES-256-GCM's combined form, associated data
    /// `swift-keychain keybag <name>`), with swift-crypto directly: what an attacker with
    /// the file would try, wherever in it the key might be.
    private static func someWindowOpens(_ file: [UInt8], _ rows: [(name: String, wrapped: [UInt8])]) -> Bool {
        guard file.count >= 32 else { return false }
        let boxes = rows.compactMap { row in
            (try? AES.GCM.SealedBox(combined: row.wrapped)).map { ($0, Array("swift-keychain keybag \(row.name)".utf8)) }
        }
        for start in 0...(file.count - 32) {
            let key = SymmetricKey(data: file[start..<start + 32])
            if boxes.contains(where: { (try? AES.GCM.open($0.0, using: key, authenticating: $0.1)) != nil }) { return true }
        }
        return false
    }

    @Test("A keychain made with a TPM keeps its device key sealed: the file is not the key, no 32 bytes of it unwrap the keybag, and a later process opens the items")
    func newKeychainIsSealed() throws {
        let tpm = try SoftwareTPM()
        let home = try Self.dataHome()
        defer { Self.delete(home, tcti: tpm.tcti) }
        try Self.addSecret(home, tcti: tpm.tcti)

        let file = try Data(contentsOf: Self.keychains(home).appendingPathComponent("login.keychain-key"))
        #expect(file.count > 32 + Self.header.count)
        #expect(file.starts(with: Self.header))
        let rows = try Self.deviceWrappedRows(home)
        // The index key, class D, and, without a password, classes A and C.
        #expect(Set(rows.map(\.name)).isSuperset(of: ["index", "dk", "ak", "ck"]))
        #expect(!Self.someWindowOpens([UInt8](file), rows))

        let found = try Self.findSecret(home, tcti: tpm.tcti)
        #expect(found.status == 0, "\(found.errors)")
        #expect(found.output == "s3cret\n")
        let info = try Self.run(["show-keychain-info", "--protection"], home, tcti: tpm.tcti)
        #expect(info.status == 0, "\(info.errors)")
        #expect(info.output.hasPrefix("protection: tpm\nThe keychain has no password. Its items open with a device key sealed to this machine's TPM"))
    }

    @Test("Without a TPM (KEYCHAIN_TPM_TCTI=none) the device key is 32 bytes that unwrap the keybag, and show-keychain-info says file")
    func withoutTPMTheKeyIsAFile() throws {
        let home = try Self.dataHome()
        try Self.addSecret(home, tcti: "none")
        let keyFile = Self.keychains(home).appendingPathComponent("login.keychain-key")
        let file = try Data(contentsOf: keyFile)
        #expect(file.count == 32)
        // The same attacker as above succeeds here: what it finds in a sealed file is real.
        let rows = try Self.deviceWrappedRows(home)
        #expect(Self.someWindowOpens([UInt8](file), rows))
        let attacker = try DeviceKeyAttacker(deviceKeyFile: keyFile)
        #expect(rows.filter { attacker.opening(name: $0.name, wrapped: $0.wrapped) == "device" }.count == rows.count)

        let info = try Self.run(["show-keychain-info", "--protection"], home, tcti: "none")
        #expect(info.status == 0, "\(info.errors)")
        #expect(info.output.hasPrefix("protection: file\nThe keychain has no password. Its items open with a device key kept in a file"))
    }

    @Test("A copy of the folder opens nothing without its TPM: with another TPM, or none, the error says why and how items move")
    func copyOpensNothingElsewhere() throws {
        let tpm = try SoftwareTPM()
        let home = try Self.dataHome()
        defer { Self.delete(home, tcti: tpm.tcti) }
        try Self.addSecret(home, tcti: tpm.tcti)

        // The other machine: a TPM of its own (new state), or none at all. The copy is in
        // another folder, so nothing this boot unsealed for the original stands in for it.
        let otherTPM = try SoftwareTPM()
        let elsewhere = try Self.copyOfFolder(home)
        let withOther = try Self.findSecret(elsewhere, tcti: otherTPM.tcti)
        #expect(withOther.status == Self.notAvailableExit)
        #expect(withOther.output.isEmpty)
        #expect(withOther.errors.contains("was sealed to another TPM, or to this one before it was cleared"), "\(withOther.errors)")
        #expect(withOther.errors.contains("keychainctl export-archive, then import-archive"))

        let withNone = try Self.findSecret(try Self.copyOfFolder(home), tcti: "none")
        #expect(withNone.status == Self.notAvailableExit)
        #expect(withNone.output.isEmpty)
        #expect(withNone.errors.contains("is sealed to a TPM, and no TPM is available"), "\(withNone.errors)")

        // The copy is whole: the TPM that sealed it opens it.
        let withOwn = try Self.findSecret(elsewhere, tcti: tpm.tcti)
        #expect(withOwn.status == 0, "\(withOwn.errors)")
        #expect(withOwn.output == "s3cret\n")
        Self.delete(elsewhere, tcti: tpm.tcti)
    }

    @Test("A keychain whose sealed key does not unseal here can still be deleted")
    func unopenableKeychainIsDeleted() throws {
        let tpm = try SoftwareTPM()
        let home = try Self.dataHome()
        defer { Self.delete(home, tcti: tpm.tcti) }
        try Self.addSecret(home, tcti: tpm.tcti)
        let elsewhere = try Self.copyOfFolder(home)
        let deleted = try Self.run(["delete-keychain", "login"], elsewhere, tcti: "none")
        #expect(deleted.status == 0, "\(deleted.errors)")
        let left = try FileManager.default.contentsOfDirectory(atPath: Self.keychains(elsewhere).path)
        #expect(left.isEmpty, "\(left)")
        // The original, and its TPM, are untouched.
        #expect(try Self.findSecret(home, tcti: tpm.tcti).output == "s3cret\n")
    }

    /// The payloads of the user's kernel keyring entries for unsealed device keys, as any
    /// process of the user can read them.
    private static func unsealedKeysInKeyring() throws -> [[UInt8]] {
        // A read loop to the end: the file is made as it is read, and grows with the entries.
        let listing = try FileBytes.read(URL(fileURLWithPath: "/proc/keys"))
        let lines = String(decoding: listing, as: UTF8.self).split(separator: "\n")
        return lines.filter { $0.contains(" swift-keychain:device-key:") }.compactMap { line in
            guard let serial = Int32(line.prefix { $0 != " " }, radix: 16) else { return nil }
            var buffer = [UInt8](repeating: 0, count: 64)
            let length = ckk_read(serial, &buffer, buffer.count)
            return length == 32 ? Array(buffer.prefix(32)) : nil
        }
    }

    @Test("The device key crosses the bus to the TPM only encrypted: tpm2-tss's capture of sealing and unsealing does not hold it")
    func keyIsEncryptedOnTheBus() throws {
        let tpm = try SoftwareTPM()
        let home = try Self.dataHome()
        defer { Self.delete(home, tcti: tpm.tcti) }
        // tpm2-tss's pcap TCTI records every command and response exchanged with the TPM.
        let capture = home.appendingPathComponent("bus.pcap")
        let recorded = "pcap:\(tpm.tcti)"
        try Self.addSecret(home, tcti: recorded, more: ["TCTI_PCAP_FILE": capture.path])
        let found = try Self.findSecret(home, tcti: recorded,
                                        more: ["TCTI_PCAP_FILE": capture.path, "KEYCHAIN_NO_KERNEL_KEYRING": "1"])
        #expect(found.output == "s3cret\n", "\(found.errors)")

        // The key, from the kernel keyring: the entry whose payload unwraps the keybag's rows.
        let rows = try Self.deviceWrappedRows(home)
        let unsealed = try Self.unsealedKeysInKeyring()
        let key = try #require(unsealed.first { Self.someWindowOpens($0, rows) },
                               "\(unsealed.count) unsealed keys in the keyring, none this keychain's")
        let bus = [UInt8](try Data(contentsOf: capture))
        // The capture holds a TPM2_Create (sealing) and a TPM2_Unseal command.
        #expect(!ByteSearch.offsets(of: [0x00, 0x00, 0x01, 0x53], in: bus).isEmpty)
        #expect(!ByteSearch.offsets(of: [0x00, 0x00, 0x01, 0x5E], in: bus).isEmpty)
        #expect(ByteSearch.offsets(of: key, in: bus).isEmpty)
        #expect(ByteSearch.offsets(of: Array(key.prefix(16)), in: bus).isEmpty)
    }

    @Test("The key is unsealed once per boot: with the TPM stopped, a later process opens the keychain from the kernel keyring, and one without the keyring cannot")
    func unsealedOncePerBoot() throws {
        let tpm = try SoftwareTPM()
        let home = try Self.dataHome()
        defer { Self.delete(home, tcti: tpm.tcti) }
        try Self.addSecret(home, tcti: tpm.tcti)
        let tcti = tpm.tcti
        tpm.stop()

        let cached = try Self.findSecret(home, tcti: tcti)
        #expect(cached.status == 0, "\(cached.errors)")
        #expect(cached.output == "s3cret\n")
        // Without the keyring each process unseals: the TPM that is not answering is needed.
        let uncached = try Self.findSecret(home, tcti: tcti, more: ["KEYCHAIN_NO_KERNEL_KEYRING": "1"])
        #expect(uncached.status == Self.notAvailableExit)
        #expect(uncached.errors.contains("is sealed to a TPM that cannot be used now"), "\(uncached.errors)")
        try tpm.start()
    }

    @Test("A keychain with a password made with a TPM has its device key sealed too, and says password, tpm")
    func passwordKeychainIsSealedToo() throws {
        let tpm = try SoftwareTPM()
        let home = try Self.dataHome()
        defer { _ = try? Self.run(["delete-keychain", "work"], home, tcti: tpm.tcti) }
        let created = try Self.run(["create-keychain", "-p", "pass word", "work"], home, tcti: tpm.tcti)
        try #require(created.status == 0, "\(created.errors)")
        let file = try Data(contentsOf: Self.keychains(home).appendingPathComponent("work.keychain-key"))
        #expect(file.starts(with: Self.header))
        let info = try Self.run(["show-keychain-info", "--protection", "work"], home, tcti: tpm.tcti)
        #expect(info.status == 0, "\(info.errors)")
        #expect(info.output.hasPrefix("protection: password, tpm\n"))
    }

    @Test("A keychain made without a TPM keeps its file key when one appears, and moves to the TPM through an archive, as documented")
    func fileKeychainMovesToTheTPMThroughAnArchive() throws {
        let tpm = try SoftwareTPM()
        let home = try Self.dataHome()
        defer { Self.delete(home, tcti: tpm.tcti) }
        try Self.addSecret(home, tcti: "none")
        // Opened and written with the TPM present, it stays as it was made.
        let updated = try Self.run(["add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "s3cret"],
                                   home, tcti: tpm.tcti)
        #expect(updated.status == 0, "\(updated.errors)")
        #expect(try Self.run(["show-keychain-info", "--protection"], home, tcti: tpm.tcti).output.hasPrefix("protection: file\n"))

        let archive = home.appendingPathComponent("login.archive")
        let exported = try Self.keychainctl.run(["export-archive", "-o", archive.path, "--password-stdin"], input: "archive pw\n",
                                                dataHome: home, environment: ["KEYCHAIN_TPM_TCTI": tpm.tcti])
        try #require(exported.status == 0, "\(exported.errors)")
        #expect(try Self.run(["delete-keychain", "login"], home, tcti: tpm.tcti).status == 0)
        #expect(try Self.run(["create-keychain", "-p", "", "login"], home, tcti: tpm.tcti).status == 0)
        let imported = try Self.keychainctl.run(["import-archive", "--password-stdin", archive.path], input: "archive pw\n",
                                                dataHome: home, environment: ["KEYCHAIN_TPM_TCTI": tpm.tcti])
        try #require(imported.status == 0, "\(imported.errors)")

        #expect(try Self.run(["show-keychain-info", "--protection"], home, tcti: tpm.tcti).output.hasPrefix("protection: tpm\n"))
        #expect(try Self.findSecret(home, tcti: tpm.tcti).output == "s3cret\n")
        let file = try Data(contentsOf: Self.keychains(home).appendingPathComponent("login.keychain-key"))
        #expect(file.starts(with: Self.header))
    }

    @Test("A damaged sealed key file, or one of an unknown format, is refused with a clear error")
    func damagedSealedFile() throws {
        let tpm = try SoftwareTPM()
        let home = try Self.dataHome()
        defer { Self.delete(home, tcti: tpm.tcti) }
        try Self.addSecret(home, tcti: tpm.tcti)
        let cases: [(Data, String)] = [
            (Self.header + Data([1, 2, 3]), "damaged"),
            (Data("swift-keychain device key sealed to a TPM 2.0, version 9\n".utf8) + Data(count: 200),
             "in a format this version of the library does not know"),
            (Data(count: 31), "neither a 32-byte key nor a key sealed to a TPM"),
        ]
        for (contents, words) in cases {
            let copy = try Self.copyOfFolder(home)
            let keyFile = Self.keychains(copy).appendingPathComponent("login.keychain-key")
            try FileManager.default.removeItem(at: keyFile)
            try #require(FileManager.default.createFile(atPath: keyFile.path, contents: contents,
                                                        attributes: [.posixPermissions: 0o600]))
            let found = try Self.findSecret(copy, tcti: tpm.tcti)
            #expect(found.status == Self.notAvailableExit)
            #expect(found.output.isEmpty)
            #expect(found.errors.contains(words), "\(found.errors)")
        }
    }
}
