import Foundation

/// RSA's two primitives without padding (RFC 8017, RSAEP/RSAVP1 and RSADP/RSASP1), on which
/// every SecKey RSA signature and encryption is built, with the paddings of ``RSAPadding``:
/// Apple's algorithms need SHA-224, SHA-384 and SHA-512 OAEP, caller-given digests and raw
/// RSA, which no padding mode of a library this package uses offers all of. Both primitives
/// are BoringSSL's (``RSAPrivateKey``, ``RSAPublicKey``).
enum RSARawOperation {
    /// Bytes of the modulus: the size of every input and output.
    static func byteCount(bits: Int) -> Int { (bits + 7) / 8 }

    /// `input^e mod n`, as many bytes as the modulus.
    ///
    /// - Throws: errSecParam when the input, as a number, is not below the modulus.
    static func publicOperation(_ input: Data, key: RSAPublicKey) throws(KeyFailure) -> Data {
        let size = byteCount(bits: key.keySizeInBits)
        guard input.count <= size, let result = key.rawOperation(leftPadded(input, to: size)) else {
            throw KeyFailure(.param, "RSA input is not smaller than the key's modulus")
        }
        return result
    }

    /// `input^d mod n`, as many bytes as the modulus. The result may be secret (a decrypted
    /// block): the caller zeroes it when done.
    ///
    /// - Throws: errSecParam when the input is not below the modulus.
    static func privateOperation(_ input: Data, key: RSAPrivateKey) throws(KeyFailure) -> Data {
        let size = byteCount(bits: key.keySizeInBits)
        guard input.count <= size else {
            throw KeyFailure(.param, "RSA input is longer than the key's block size")
        }
        guard let result = key.rawOperation(leftPadded(input, to: size)) else {
            throw KeyFailure(.param, "RSA input is not smaller than the key's modulus")
        }
        return result
    }

    /// `bytes` with zeros in front up to `count` (unchanged when already as long or longer).
    static func leftPadded(_ bytes: Data, to count: Int) -> Data {
        guard bytes.count < count else { return bytes }
        return Data(count: count - bytes.count) + bytes
    }
}
