import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// What the SecKey suites share: a scratch folder where `openssl` reads and writes keys,
/// messages and signatures, and the status of a SecKey call's error.
struct OpenSSLFolder {
    let url: URL

    init() throws {
        url = TestScratch.folder("seckey")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ data: Data, _ name: String) throws {
        try data.write(to: url.appendingPathComponent(name))
    }

    func read(_ name: String) throws -> Data {
        try Data(contentsOf: url.appendingPathComponent(name))
    }

    /// Runs `openssl` in the folder's terms, returning its exit status and standard output.
    @discardableResult
    func openssl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = try SpawnedProcess("/usr/bin/openssl", arguments, environment: [:],
                                         stdin: .open("/dev/null", 0), stdout: .pipe,
                                         stderr: .open("/dev/null", 1))
        let output = process.readOutputToEnd()
        return (process.wait().status, output)
    }

    /// Runs `openssl` and requires it to succeed.
    @discardableResult
    func require(_ arguments: [String]) throws -> String {
        let result = try openssl(arguments)
        try #require(result.status == 0, "openssl \(arguments.first ?? "") failed")
        return result.output
    }
}

/// SecKey calls and their errors, as a test reads them.
enum SecKeyCalls {
    /// The `OSStatus` of a SecKey error (its code), or nil for none.
    static func status(_ error: Unmanaged<CFError>?) -> Int? {
        error.map { ($0.takeRetainedValue() as Error as NSError).code }
    }

    static func key(_ data: Data, type: CFString, private isPrivate: Bool) throws -> SecKey {
        let attributes: [String: Any] = [kSecAttrKeyType as String: type,
                                         kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic]
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateWithData(data as CFData, attributes as CFDictionary, &error)
        return try #require(key, "SecKeyCreateWithData failed: \(String(describing: status(error)))")
    }

    static func randomKey(type: CFString, bits: Int) throws -> SecKey {
        let parameters: [String: Any] = [kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits]
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
        return try #require(key, "SecKeyCreateRandomKey failed: \(String(describing: status(error)))")
    }

    static func external(_ key: SecKey) throws -> Data {
        try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
    }

    static func publicKey(_ key: SecKey) throws -> SecKey {
        try #require(SecKeyCopyPublicKey(key))
    }

    static func sign(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws -> Data {
        var error: Unmanaged<CFError>?
        let signature = SecKeyCreateSignature(key, algorithm, data as CFData, &error) as Data?
        return try #require(signature, "SecKeyCreateSignature failed: \(String(describing: status(error)))")
    }

    /// Whether the signature verifies, and the error status when it does not.
    static func verify(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data, _ signature: Data) -> (Bool, Int?) {
        var error: Unmanaged<CFError>?
        let valid = SecKeyVerifySignature(key, algorithm, data as CFData, signature as CFData, &error)
        return (valid, status(error))
    }

    /// The status of a signature that fails, or nil when it succeeds.
    static func signingStatus(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> Int? {
        var error: Unmanaged<CFError>?
        let signature = SecKeyCreateSignature(key, algorithm, data as CFData, &error)
        return signature == nil ? (status(error) ?? 0) : nil
    }

    static func encrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> (Data?, Int?) {
        var error: Unmanaged<CFError>?
        let result = SecKeyCreateEncryptedData(key, algorithm, data as CFData, &error) as Data?
        return (result, status(error))
    }

    static func decrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> (Data?, Int?) {
        var error: Unmanaged<CFError>?
        let result = SecKeyCreateDecryptedData(key, algorithm, data as CFData, &error) as Data?
        return (result, status(error))
    }
}

/// SHA-224 digests by `openssl dgst -sha224`, an implementation independent of the module's
/// (swift-crypto has none); an empty digest if openssl fails, which no check accepts.
enum SHA224Reference {
    static func digest(_ data: Data) -> Data {
        guard let folder = try? OpenSSLFolder(), (try? folder.write(data, "input")) != nil,
              let result = try? folder.openssl(["dgst", "-sha224", "-binary", "-out", folder.path("digest"), folder.path("input")]),
              result.status == 0 else { return Data() }
        return (try? folder.read("digest")) ?? Data()
    }
}
