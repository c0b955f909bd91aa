import Crypto
import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Bounded work for untrusted scrypt parameters: what an archive header or a keychain's
/// stored parameters ask for is refused above 256 MiB of memory (128·N·r) or 16 times the
/// standard work (N·r·p at most 2^23), with a clear error, before any key is derived.
@Suite struct ScryptBoundTests {
    static let password = Data("archive password".utf8)
    let owner = CallerIdentity(accessGroups: ["com.example.app"])

    /// An intact archive of one item (its trailer matches), whose header names the scrypt
    /// parameters `logRounds`, `blockSize` and `parallelism` instead of those it was sealed with.
    func archive(logRounds: UInt8, blockSize: UInt8, parallelism: UInt8) throws -> Data {
        let store = try KeychainStore.open(KeychainFiles(directory: TestScratch.folder("bound-source"), name: "login"))
        _ = try store.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string("alice")],
                                  data: Data("s3cret".utf8)), by: owner)
        var bytes = [UInt8](try store.exportArchive(password: Self.password, kdf: .fastForTesting()).archive)
        // After the magic and the 2-byte version: log2 N, r, p.
        let parameters = KeychainArchive.magic.count + 2
        bytes[parameters] = logRounds
        bytes[parameters + 1] = blockSize
        bytes[parameters + 2] = parallelism
        let body = bytes.dropLast(SHA256.byteCount)
        return Data(body) + KeychainArchive.trailer(of: body)
    }

    /// The reason of an errSecParam, or nil for any other outcome.
    func paramReason(_ body: () throws -> Void) -> String? {
        do {
            try body()
        } catch KeychainError.param(let reason) {
            return reason
        } catch {
            return nil
        }
        return nil
    }

    @Test("an archive asking for N=2^22, r=32, p=16 (16 GiB) is refused before scrypt runs, saying it asks for more than the bound")
    func hostileArchiveHeaderIsRefused() throws {
        let hostile = try archive(logRounds: 22, blockSize: 32, parallelism: 16)
        let target = try KeychainStore.open(KeychainFiles(directory: TestScratch.folder("bound-target"), name: "login"))
        // errSecParam with this reason comes from the header check: a derivation would have
        // ended in errSecAuthFailed (the password check) or an I/O error (allocation).
        let reason = paramReason { _ = try target.importArchive(hostile, password: Self.password, policy: .failOnDuplicate) }
        let text = try #require(reason)
        #expect(text.contains("the archive asks for more than the bound allows"))
        #expect(text.contains("N=2^22, r=32, p=16"))
        #expect(text.contains("16384 MiB"))
        #expect(KeychainError.param(text).description.contains("more than the bound allows"))
        #expect(paramReason { _ = try KeychainArchive.recordedKDF(in: hostile) } != nil)
    }

    @Test("scrypt parameters at exactly the bound (256 MiB, 16 times the standard work) are accepted; one step over is not")
    func boundIsInclusive() throws {
        // N=2^18, r=8: 128·N·r = 256 MiB; p=4: N·r·p = 2^23, 16 times 2^16·8·1.
        let atBound = try archive(logRounds: 18, blockSize: 8, parallelism: 4)
        let kdf = try KeychainArchive.recordedKDF(in: atBound)
        #expect([kdf.logRounds, kdf.blockSize, kdf.parallelism] == [18, 8, 4] as [Int])
        #expect(kdf.isReasonable)
        // Over on work only, then on memory only.
        let moreWork = try archive(logRounds: 18, blockSize: 8, parallelism: 5)
        #expect(paramReason { _ = try KeychainArchive.recordedKDF(in: moreWork) }?.contains("times the standard work") == true)
        let moreMemory = try archive(logRounds: 19, blockSize: 8, parallelism: 1)
        #expect(paramReason { _ = try KeychainArchive.recordedKDF(in: moreMemory) }?.contains("512 MiB") == true)
        // The standard parameters are well inside.
        #expect(PasswordKDF.standard().isReasonable)
        // Parameters a caller passes (a new keychain password's) meet the same bound.
        let hostile = PasswordKDF(logRounds: 22, blockSize: 32, parallelism: 16, salt: Data(repeating: 1, count: 16))
        #expect(paramReason { _ = try hostile.deriveKey(from: Data("pw".utf8)) }?.contains("16384 MiB") == true)
    }

    @Test("a keychain's stored parameters over the bound are errSecNotAvailable, before scrypt runs; at the bound they are read")
    func keychainStoredParametersAreBounded() throws {
        let salt = String(repeating: "ab", count: 16)
        #expect(PasswordKDF(encoded: "scrypt 18 8 4 \(salt)") != nil)
        #expect(PasswordKDF(encoded: "scrypt 22 32 16 \(salt)") == nil)
        #expect(PasswordKDF(encoded: "scrypt 19 8 1 \(salt)") == nil)
        #expect(PasswordKDF(encoded: "scrypt 18 8 5 \(salt)") == nil)
        // Huge values must not overflow into something small.
        #expect(PasswordKDF(encoded: "scrypt 63 1 1 \(salt)") == nil)
        #expect(PasswordKDF(encoded: "scrypt 10 \(Int.max) \(Int.max) \(salt)") == nil)

        let password = Data("keychain password".utf8)
        let store = try KeychainStore.create(
            KeychainFiles(directory: TestScratch.folder("bound-keychain"), name: "work"),
            password: password, kdf: .fastForTesting())
        store.lock()
        let queue = try DatabaseQueue(path: store.files.database.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'password'", arguments: ["scrypt 22 32 16 \(salt)"])
        }
        try queue.close()
        var status: Int32 = 0
        do { try store.unlock(password: password) } catch { status = error.status }
        #expect(status == KeychainError.notAvailable("").status)
        #expect(!store.isUnlocked)
    }
}
