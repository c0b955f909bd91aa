import Foundation
@_implementationOnly import KeychainCore

/// The paddings of PKCS #1 (RFC 8017) around ``RSARawOperation``: one implementation for
/// every hash, so that Apple's SHA-384/512 OAEP and caller-given digests work like the rest.
///
/// The decoders of encryption paddings look at every byte whatever they find and fail with
/// one error, so that a failure tells an attacker nothing about where the padding broke.
enum RSAPadding {
    // MARK: Signatures

    /// EMSA-PKCS1-v1_5 (RFC 8017, 9.2): `00 01 FF…FF 00 ‖ T`, the size of the modulus.
    static func pkcs1v15SignatureBlock(_ encoded: Data, size: Int) throws(KeyFailure) -> Data {
        guard encoded.count + 11 <= size else {
            throw KeyFailure(.param, "the data is too long for a PKCS #1 v1.5 signature with this key")
        }
        return Data([0x00, 0x01]) + Data(repeating: 0xFF, count: size - encoded.count - 3) + Data([0x00]) + encoded
    }

    /// EMSA-PSS-ENCODE (RFC 8017, 9.1.1) with MGF1 of the same hash and a salt as long as
    /// the digest (Apple's choice), left-padded to the size of the modulus.
    static func pssBlock(digest: Data, hash: DigestAlgorithm, modulusBits: Int) throws(KeyFailure) -> Data {
        let emBits = modulusBits - 1
        let emLength = (emBits + 7) / 8
        let hashLength = hash.byteCount
        let saltLength = hashLength
        guard emLength >= hashLength + saltLength + 2 else {
            throw KeyFailure(.param, "the key is too small for a PSS signature with \(hash.name)")
        }
        let salt = randomBytes(saltLength, nonzero: false)
        let h = hash.hash(Data(count: 8) + digest + salt)
        var db = Data(count: emLength - saltLength - hashLength - 2) + Data([0x01]) + salt
        let mask = hash.mask(seed: h, length: db.count)
        for index in db.indices { db[index] ^= mask[mask.startIndex + index] }
        db[0] &= 0xFF >> (8 * emLength - emBits)
        return RSARawOperation.leftPadded(db + h + Data([0xBC]), to: RSARawOperation.byteCount(bits: modulusBits))
    }

    /// EMSA-PSS-VERIFY (RFC 8017, 9.1.2) of a block the public operation gave.
    static func pssMatches(block: Data, digest: Data, hash: DigestAlgorithm, modulusBits: Int) -> Bool {
        let emBits = modulusBits - 1
        let emLength = (emBits + 7) / 8
        let hashLength = hash.byteCount
        let saltLength = hashLength
        // A copy of the decrypted block: cleared when done.
        var bytes = [UInt8](block)
        defer { bytes.zeroize() }
        // The block has one leading zero byte more than EM when emBits is a multiple of 8.
        guard bytes.count >= emLength, bytes.prefix(bytes.count - emLength).allSatisfy({ $0 == 0 }) else { return false }
        let em = Array(bytes.suffix(emLength))
        guard emLength >= hashLength + saltLength + 2, em.last == 0xBC else { return false }
        let maskedDB = Array(em[0..<(emLength - hashLength - 1)])
        let h = Data(em[(emLength - hashLength - 1)..<(emLength - 1)])
        let topBits: UInt8 = ~(0xFF >> (8 * emLength - emBits))
        guard maskedDB[0] & topBits == 0 else { return false }
        let mask = [UInt8](hash.mask(seed: h, length: maskedDB.count))
        var db = zip(maskedDB, mask).map { $0 ^ $1 }
        db[0] &= ~topBits
        let paddingLength = emLength - hashLength - saltLength - 2
        guard db[0..<paddingLength].allSatisfy({ $0 == 0 }), db[paddingLength] == 0x01 else { return false }
        let salt = Data(db.suffix(saltLength))
        return hash.hash(Data(count: 8) + digest + salt) == h
    }

    // MARK: Encryption

    /// EME-PKCS1-v1_5 encoding (RFC 8017, 7.2.1): `00 02 PS 00 ‖ M`, PS nonzero random bytes.
    static func pkcs1EncryptionBlock(_ message: Data, size: Int) throws(KeyFailure) -> Data {
        guard message.count + 11 <= size else {
            throw KeyFailure(.param, "the plaintext is too long for PKCS #1 v1.5 encryption with this key (at most \(max(size - 11, 0)) bytes)")
        }
        return Data([0x00, 0x02]) + randomBytes(size - message.count - 3, nonzero: true) + Data([0x00]) + message
    }

    /// EME-PKCS1-v1_5 decoding: the message of a decrypted block.
    static func pkcs1EncryptionMessage(_ block: Data) throws(KeyFailure) -> Data {
        // A copy of the decrypted block: cleared when done.
        var bytes = [UInt8](block)
        defer { bytes.zeroize() }
        var bad = UInt8(bytes.count < 11 ? 1 : 0)
        guard bad == 0 else { throw decryptionFailure }
        bad |= bytes[0] | (bytes[1] ^ 0x02)
        // The first zero after the two header bytes ends the padding; it must come after
        // eight bytes of padding at least.
        var found: UInt8 = 0
        var separator = 0
        for index in 2..<bytes.count {
            let isZero = constantTimeIsZero(bytes[index])
            let firstZero = isZero & ~found & 1
            separator = select(firstZero, index, separator)
            found |= isZero
        }
        bad |= ~found & 1
        bad |= UInt8(separator < 10 ? 1 : 0)
        guard bad == 0 else { throw decryptionFailure }
        return Data(bytes[(separator + 1)...])
    }

    /// EME-OAEP encoding (RFC 8017, 7.1.1) with an empty label and MGF1 of the same hash.
    static func oaepBlock(_ message: Data, hash: DigestAlgorithm, size: Int) throws(KeyFailure) -> Data {
        let hashLength = hash.byteCount
        guard message.count + 2 * hashLength + 2 <= size else {
            throw KeyFailure(.param, "the plaintext is too long for OAEP \(hash.name) encryption with this key (at most \(max(size - 2 * hashLength - 2, 0)) bytes)")
        }
        let labelHash = hash.hash(Data())
        var db = labelHash + Data(count: size - message.count - 2 * hashLength - 2) + Data([0x01]) + message
        defer { db.resetBytes(in: 0..<db.count) }
        let seed = randomBytes(hashLength, nonzero: false)
        let dbMask = hash.mask(seed: seed, length: db.count)
        let maskedDB = Data(zip(db, dbMask).map { $0 ^ $1 })
        let seedMask = hash.mask(seed: maskedDB, length: hashLength)
        let maskedSeed = Data(zip(seed, seedMask).map { $0 ^ $1 })
        return Data([0x00]) + maskedSeed + maskedDB
    }

    /// EME-OAEP decoding: the message of a decrypted block.
    static func oaepMessage(_ block: Data, hash: DigestAlgorithm) throws(KeyFailure) -> Data {
        let hashLength = hash.byteCount
        // A copy of the decrypted block: cleared when done.
        var bytes = [UInt8](block)
        defer { bytes.zeroize() }
        guard bytes.count >= 2 * hashLength + 2 else { throw decryptionFailure }
        let maskedSeed = bytes[1...hashLength]
        let maskedDB = Data(bytes[(hashLength + 1)...])
        let seedMask = hash.mask(seed: maskedDB, length: hashLength)
        let seed = Data(zip(maskedSeed, seedMask).map { $0 ^ $1 })
        let dbMask = hash.mask(seed: seed, length: maskedDB.count)
        var db = zip(maskedDB, dbMask).map { $0 ^ $1 }
        defer { db.zeroize() }
        defer { for index in db.indices { db[index] = 0 } }
        let labelHash = [UInt8](hash.hash(Data()))
        var bad = bytes[0]
        for index in 0..<hashLength { bad |= db[index] ^ labelHash[index] }
        // After the label's hash: zeros, then 01, then the message. Any other byte before
        // the 01 is an error.
        var found: UInt8 = 0
        var separator = 0
        for index in hashLength..<db.count {
            let isOne = constantTimeIsZero(db[index] ^ 0x01)
            let isZero = constantTimeIsZero(db[index])
            let notYet = ~found & 1
            separator = select(notYet & isOne, index, separator)
            bad |= notYet & ~isZero & ~isOne & 1
            found |= isOne
        }
        bad |= ~found & 1
        guard bad == 0 else { throw decryptionFailure }
        return Data(db[(separator + 1)...])
    }

    // MARK: Helpers

    private static var decryptionFailure: KeyFailure {
        KeyFailure(.param, "RSA decryption failed: the ciphertext was not made with this key and padding")
    }

    /// 1 when `byte` is zero, else 0, without a branch on the value.
    private static func constantTimeIsZero(_ byte: UInt8) -> UInt8 {
        UInt8((UInt16(byte) &- 1) >> 15)
    }

    /// `then` when `condition` is 1, `otherwise` when it is 0, without a branch on it.
    private static func select(_ condition: UInt8, _ then: Int, _ otherwise: Int) -> Int {
        let mask = -Int(condition)
        return (then & mask) | (otherwise & ~mask)
    }

    /// Random bytes from the system's generator; with no zero byte when `nonzero`.
    private static func randomBytes(_ count: Int, nonzero: Bool) -> Data {
        var generator = SystemRandomNumberGenerator()
        var bytes = Data(count: count)
        for index in 0..<count {
            var byte = UInt8.random(in: .min ... .max, using: &generator)
            while nonzero && byte == 0 { byte = UInt8.random(in: .min ... .max, using: &generator) }
            bytes[index] = byte
        }
        return bytes
    }
}
