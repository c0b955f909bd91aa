import Crypto
import Foundation

/// The encrypted export format: migratable items under a password of the archive's own.
///
/// Layout, integers big-endian:
/// - header: the magic `SWKCARCH`, the format version (2 bytes), scrypt's log2 N, r and p
///   (a byte each), the salt's length (a byte) and the salt, then a 32-byte password check;
/// - payload: AES-256-GCM in combined form (nonce, ciphertext, tag), with the whole header as
///   associated data;
/// - trailer: SHA-256 of the header and the payload.
///
/// The payload key and the password check are two HKDF keys from the scrypt key. Three checks,
/// each with its own answer: the trailer finds a damaged file before the KDF runs
/// (errSecDecode); the password check tells a wrong password (errSecAuthFailed) from altered
/// contents; GCM authenticates the contents and binds them to the header, so a changed
/// version or KDF parameter is detected too (errSecDecode).
///
/// The plaintext is in ``ArchivePayload`` form. ThisDeviceOnly items are never written and
/// are refused when read: they are bound to the machine they were made on.
package enum KeychainArchive {
    /// An item as an archive carries it: every attribute as stored, and the secret.
    package struct Item: Sendable {
        package let record: ItemRecord
        package let secret: Data
    }

    package static let magic = Array("SWKCARCH".utf8)
    package static let formatVersion: UInt16 = 1
    private static let checkLength = 32
    private static let trailerLength = SHA256.byteCount

    /// The archive of `items`. An empty password, KDF parameters outside what an archive may
    /// record, or a ThisDeviceOnly item is errSecParam.
    static func seal(_ items: [Item], password: Data, kdf: PasswordKDF) throws(KeychainError) -> Data {
        guard !password.isEmpty else { throw .param("an archive needs a password") }
        guard kdf.isReasonable else { throw .param("the KDF parameters are outside what an archive may record") }
        guard items.allSatisfy({ !$0.record.accessibility.isThisDeviceOnly }) else {
            throw .param("ThisDeviceOnly items never leave this machine")
        }
        let plaintext = try ArchivePayload.encode(items)
        let keys = try Keys(password: password, kdf: kdf)
        var header = magic
        header.append(contentsOf: [UInt8(formatVersion >> 8), UInt8(formatVersion & 0xFF)])
        header.append(contentsOf: [kdf.logRounds, kdf.blockSize, kdf.parallelism, kdf.salt.count].map { UInt8($0) })
        header.append(contentsOf: kdf.salt)
        header.append(contentsOf: keys.check.withUnsafeBytes { Array($0) })
        var archive = Data(header)
        archive.append(try RecordSealer.seal(Data(plaintext), with: keys.payload, binding: Data(header)))
        archive.append(trailer(of: archive))
        return archive
    }

    /// The items of an archive, in the order they were written.
    ///
    /// A wrong password is errSecAuthFailed. KDF parameters that ask for more memory or work
    /// than ``PasswordKDF/maximumMemory`` and ``PasswordKDF/maximumWork`` allow are
    /// errSecParam, saying so, before any key is derived. Anything else that is not an intact
    /// archive of this format (truncated, altered, of another version, naming malformed KDF
    /// parameters, or holding an item no keychain could have stored) is errSecDecode.
    package static func open(_ archive: Data, password: Data) throws(KeychainError) -> [Item] {
        let bytes = [UInt8](archive)
        let header = try Header(bytes)
        guard bytes.count >= header.length + trailerLength,
              trailer(of: bytes.dropLast(trailerLength)).elementsEqual(bytes.suffix(trailerLength))
        else { throw damaged("it is truncated or altered") }
        try checkBound(header.kdf)
        let keys = try Keys(password: password, kdf: header.kdf)
        // SymmetricKey compares in constant time.
        guard keys.check == SymmetricKey(data: header.check) else { throw .authFailed }
        let plaintext = try RecordSealer.open(
            Data(bytes[header.length..<bytes.count - trailerLength]), with: keys.payload,
            binding: Data(bytes[0..<header.length]))
        var items: [Item] = []
        for item in try ArchivePayload.decode([UInt8](plaintext)) {
            items.append(Item(record: try validated(item.record), secret: item.secret))
        }
        return items
    }

    /// The KDF parameters and salt an archive records.
    package static func recordedKDF(in archive: Data) throws(KeychainError) -> PasswordKDF {
        let kdf = try Header([UInt8](archive)).kdf
        try checkBound(kdf)
        return kdf
    }

    /// errSecParam, saying so, when an archive's parameters ask for more than the bound
    /// allows: checked before anything runs the KDF, so that a hostile header cannot make it
    /// allocate gigabytes or spin for minutes.
    private static func checkBound(_ kdf: PasswordKDF) throws(KeychainError) {
        if let excess = kdf.excessOverBound {
            throw .param("the archive asks for more than the bound allows: \(excess)")
        }
    }

    /// The trailer that ends an archive of header and payload `body`.
    static func trailer(of body: some DataProtocol) -> Data {
        Data(SHA256.hash(data: body))
    }

    /// The parsed header: what the KDF needs, the password check, and where the payload starts.
    private struct Header {
        let kdf: PasswordKDF
        let check: Data
        let length: Int

        init(_ bytes: [UInt8]) throws(KeychainError) {
            var reader = ByteReader(bytes: bytes)
            guard try reader.take(magic.count).elementsEqual(magic) else { throw damaged("it is not a keychain archive") }
            let version = try reader.take(2).reduce(0) { $0 << 8 | UInt16($1) }
            guard version == formatVersion else {
                throw damaged("it has format version \(version); this library reads \(formatVersion)")
            }
            let logRounds = Int(try reader.byte()), blockSize = Int(try reader.byte())
            let parallelism = Int(try reader.byte())
            let salt = Data(try reader.take(Int(try reader.byte())))
            kdf = PasswordKDF(logRounds: logRounds, blockSize: blockSize, parallelism: parallelism, salt: salt)
            // Checked before anything runs the KDF: a hostile header must not make it
            // allocate gigabytes or spin for minutes.
            guard kdf.isWellFormed else { throw damaged("its KDF parameters are out of bounds") }
            check = Data(try reader.take(checkLength))
            length = reader.offset
        }
    }

    /// The two keys of an archive, from its password through scrypt and HKDF.
    private struct Keys {
        let payload: SymmetricKey
        let check: SymmetricKey

        init(password: Data, kdf: PasswordKDF) throws(KeychainError) {
            let master = try kdf.deriveKey(from: password)
            func key(_ purpose: String) -> SymmetricKey {
                HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data(utf8Of: "swift-keychain archive \(purpose)"),
                                       outputByteCount: 32)
            }
            payload = key("payload")
            check = key("password check")
        }
    }

    /// The record if a keychain could have stored it as it is: only attributes of its class
    /// with valid values, everything the keychain maintains present, and not ThisDeviceOnly.
    private static func validated(_ record: ItemRecord) throws(KeychainError) -> ItemRecord {
        let schema = record.itemClass.schema
        guard record.itemClass != .identity else { throw damaged("an item is an identity") }
        for (code, value) in record.attributes {
            guard let attribute = schema.attributes[code], attribute.kind != .ignored,
                  (try? attribute.canonicalBytes(of: value)) != nil
            else { throw damaged("an item has an attribute its class does not take") }
        }
        let maintained = [ItemSchema.accessGroup, ItemSchema.accessible, ItemSchema.creationDate,
                          ItemSchema.modificationDate]
        guard maintained.allSatisfy({ record.attributes[$0.code] != nil }),
              record.attributes[ItemSchema.synchronizable.code] == .number(0)
                || record.attributes[ItemSchema.synchronizable.code] == .number(1)
        else { throw damaged("an item lacks an attribute every item has") }
        guard !record.accessibility.isThisDeviceOnly else { throw damaged("an item is ThisDeviceOnly") }
        return record
    }

    /// errSecDecode, with the reason logged: the error has no room for it.
    static func damaged(_ reason: String) -> KeychainError {
        keychainLogger.debug("cannot read keychain archive: \(reason)")
        return .decode
    }
}
