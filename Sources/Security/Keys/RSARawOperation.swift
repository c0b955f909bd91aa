internal import BigInt
internal import Crypto
internal import CryptoExtras
import Foundation

/// RSA's two primitives without padding (RFC 8017, RSAEP/RSAVP1 and RSADP/RSASP1), on which
/// SecKey's RSA encryption, and the signatures BoringSSL cannot make whole
/// (``RSAMessageSignature``), are built with the paddings of ``RSAPadding``.
///
/// CryptoExtras pads inside BoringSSL and only with SHA-1/SHA-256 OAEP and the four digest
/// types it knows; Apple's algorithms need SHA-384/512 OAEP, caller-given digests, and raw
/// RSA. So the private operation is BoringSSL's own (blinded, constant-time, checked
/// against the public key), reached through CryptoExtras' RSA blind signing, which is that
/// operation without padding; the public operation, on public values only, is BigInt's.
enum RSARawOperation {
    /// Bytes of the modulus: the size of every input and output.
    static func byteCount(bits: Int) -> Int { (bits + 7) / 8 }

    /// `input^e mod n`, as many bytes as the modulus.
    ///
    /// - Throws: errSecParam when the input, as a number, is not below the modulus.
    static func publicOperation(_ input: Data, key: _RSA.Signing.PublicKey) throws(KeyFailure) -> Data {
        guard let primitives = try? key.getKeyPrimitives() else {
            throw KeyFailure(.internalComponent, "the RSA public key's numbers cannot be read")
        }
        let modulus = BigUInt(primitives.modulus)
        let value = BigUInt(input)
        guard value < modulus else {
            throw KeyFailure(.param, "RSA input is not smaller than the key's modulus")
        }
        let result = value.power(BigUInt(primitives.publicExponent), modulus: modulus)
        return leftPadded(result.serialize(), to: byteCount(bits: key.keySizeInBits))
    }

    /// `input^d mod n`, as many bytes as the modulus. The result may be secret (a decrypted
    /// block): the caller zeroes it when done.
    ///
    /// - Throws: errSecParam when the input is not below the modulus.
    static func privateOperation(_ input: Data, key: _RSA.Signing.PrivateKey) throws(KeyFailure) -> Data {
        let size = byteCount(bits: key.keySizeInBits)
        let block = leftPadded(input, to: size)
        var der = key.derRepresentation
        defer { der.resetBytes(in: 0..<der.count) }
        let rawKey: _RSA.BlindSigning.PrivateKey<SHA384>
        do {
            rawKey = try _RSA.BlindSigning.PrivateKey<SHA384>(unsafeDERRepresentation: der)
        } catch {
            throw KeyFailure(.internalComponent, "the RSA private key cannot be used for its raw operation")
        }
        guard block.count == size else {
            throw KeyFailure(.param, "RSA input is longer than the key's block size")
        }
        do {
            return try rawKey.blindSignature(for: block).rawRepresentation
        } catch {
            throw KeyFailure(.param, "RSA input is not smaller than the key's modulus")
        }
    }

    /// `bytes` with zeros in front up to `count` (unchanged when already as long or longer).
    static func leftPadded(_ bytes: Data, to count: Int) -> Data {
        guard bytes.count < count else { return bytes }
        return Data(count: count - bytes.count) + bytes
    }
}
