import Foundation
import KeychainCore
import KeychainFuzzTargets
import Security
import TestSupport
import Testing
import TestTags
#if canImport(Glibc)
import Glibc
#endif

/// The fast sample of the coverage-guided fuzzing (the long run is Scripts/libfuzz): every
/// input of the corpus it found and kept in Tests/LibFuzzCorpus goes again through its
/// target, which must neither crash nor hang nor break a target's expectation (bad input
/// gets a documented status or error, never a crash).
@Suite struct LibFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("LibFuzzCorpus")

    /// Runs in the replaying build of keychain-libfuzz, a process of its own in a session of
    /// its own (no terminal for keychainctl's prompts, standard input /dev/null), as the
    /// fuzzer does: a crash fails this test rather than ending the test run.
    @Test(.tags(.slow), arguments: FuzzTarget.allCases)
    func everyCorpusInputRunsWithoutCrashing(target: FuzzTarget) throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(!inputs.isEmpty, "the corpus of \(target.rawValue) is empty")

        let scratch = TestScratch.folder("libfuzz-replay")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let errors = scratch.appendingPathComponent("stderr")
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_FUZZ_TARGET"] = target.rawValue
        let process = try SpawnedProcess(
            ProgramProcess("keychain-libfuzz").executable.path, [folder.path], environment: environment,
            stdin: .open("/dev/null", O_RDONLY), stdout: .pipe, stderr: .open(errors.path, O_WRONLY | O_CREAT | O_TRUNC),
            newSession: true)
        let output = process.readOutputToEnd()
        let termination = process.wait()
        let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(!termination.signalled && termination.status == 0, "status \(termination.status): \(errorText.suffix(4_000))")
        // The last line; keychainctl's commands print before it.
        #expect(output.hasSuffix("replayed \(inputs.count) inputs through \(target.rawValue)\n"), "\(output.suffix(500))")
    }

    /// The archive target seals payloads under a fixed key it derives as the format says; the
    /// reader must accept them, or the fuzzer would never get past errSecDecode to the
    /// payload decoder. One generic password, with the attributes every item has, opens to
    /// that item and its secret.
    @Test func archivesSealedUnderTheFixedKeyReachThePayloadDecoder() throws {
        #expect(try KeychainArchive.open(FixedKeyArchive.sealing(payload: Data([0, 0, 0, 0])),
                                         password: FixedKeyArchive.password).isEmpty)

        let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let attributes = try RecordCodec.encode([
            "acct": .string("alice"), "svce": .string("example.com"), "agrp": .string("fuzz.app"),
            "pdmn": .string("ak"), "cdat": .date(date), "mdat": .date(date), "sync": .number(0),
        ])
        var payload = Data([0, 0, 0, 1]) + Data("genp".utf8)
        payload += withUnsafeBytes(of: UInt32(attributes.count).bigEndian) { Data($0) } + attributes
        payload += withUnsafeBytes(of: UInt32(6).bigEndian) { Data($0) } + Data("secret".utf8)
        let items = try KeychainArchive.open(FixedKeyArchive.sealing(payload: payload), password: FixedKeyArchive.password)
        #expect(items.count == 1)
        #expect(items.first?.record.attributes["acct"] == .string("alice"))
        #expect(items.first?.secret == Data("secret".utf8))
    }

    /// The PKCS#12 target's corpus grew from files openssl exported with the target's
    /// passphrase and from their authenticated safes, which the target wraps in a PFX without
    /// a MAC. Some inputs of each kind must still open to a key and a certificate, or the
    /// fuzzer would be exploring only what the reader rejects early.
    @Test func pkcs12CorpusReachesKeysAndCertificatesInBothModes() throws {
        let folder = Self.corpus.appendingPathComponent(FuzzTarget.pkcs12Reader.rawValue)
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        var opened = [0, 0]
        for name in inputs {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            guard let mode = bytes.first.map({ Int($0 & 1) }) else { continue }
            let rest = Array(bytes.dropFirst())
            let file = mode == 0 ? rest : PKCS12ReaderTarget.withoutMAC(authenticatedSafe: rest)
            guard let archive = try? PKCS12Archive(derBytes: file, passphrase: PKCS12ReaderTarget.passphrase),
                  !archive.privateKeys.isEmpty, !archive.certificates.isEmpty
            else { continue }
            opened[mode] += 1
        }
        #expect(opened[0] >= 1 && opened[1] >= 1, "whole files: \(opened[0]), wrapped safes: \(opened[1])")
    }
}
