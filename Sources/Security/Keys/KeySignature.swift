import Foundation

/// Signing and verifying with a key's material: the work behind ``SecKeyCreateSignature(_:_:_:_:)``,
/// ``SecKeyVerifySignature(_:_:_:_:_:)`` and the legacy `SecKeyRawSign`/`SecKeyRawVerify`.
enum KeySignature {
    /// The key's signature of `data` under `algorithm`.
    static func sign(_ data: Data, with key: KeyMaterial, algorithm: SecKeyAlgorithm) throws(KeyFailure) -> Data {
        let scheme = try KeyOperation.scheme(algorithm, .sign, key)
        switch (scheme, key) {
        case (.ecdsa(let input, let format), .ellipticCurvePrivate(let privateKey)):
            return try ECDSASignature.sign(digest(of: data, input), with: privateKey, format: format)
        case (.ecdsa(let input, let format), .tpmPrivate(let privateKey)):
            return try privateKey.sign(digest: digest(of: data, input), format: format)
        case (.rsaSignature(let input, let padding), .rsaPrivate(let privateKey)):
            let block = try rsaBlock(for: data, input, padding, modulusBits: privateKey.keySizeInBits)
            return try RSARawOperation.privateOperation(block, key: privateKey)
        default:
            throw KeyFailure(.unimplemented, "algorithm not supported by the key: \(algorithm.identifier)")
        }
    }

    /// Whether `signature` is the key's signature of `data` under `algorithm`.
    ///
    /// - Throws: errSecVerifyFailed when it is not; errSecUnimplemented or errSecParam when
    ///   the key cannot verify with the algorithm or the data is not of its kind.
    static func verify(_ signature: Data, of data: Data, with key: KeyMaterial,
                       algorithm: SecKeyAlgorithm) throws(KeyFailure) {
        let scheme = try KeyOperation.scheme(algorithm, .verify, key)
        let valid: Bool
        switch (scheme, key) {
        case (.ecdsa(let input, let format), .ellipticCurvePublic(let publicKey)):
            valid = ECDSASignature.isValid(signature, of: try digest(of: data, input), for: publicKey, format: format)
        case (.rsaSignature(let input, let padding), .rsaPublic(let publicKey)):
            let bits = publicKey.keySizeInBits
            // A signature is exactly as long as the modulus (RFC 8017, 8.2.2 step 1).
            guard signature.count == RSARawOperation.byteCount(bits: bits),
                  let block = try? RSARawOperation.publicOperation(signature, key: publicKey) else {
                valid = false
                break
            }
            if case .pss = padding, let hash = scheme.digestAlgorithm {
                valid = try RSAPadding.pssMatches(block: block, digest: digest(of: data, input), hash: hash, modulusBits: bits)
            } else {
                valid = try block == rsaBlock(for: data, input, padding, modulusBits: bits)
            }
        default:
            throw KeyFailure(.unimplemented, "algorithm not supported by the key: \(algorithm.identifier)")
        }
        guard valid else {
            throw KeyFailure(.verifyFailed, "\(key.family == .rsa ? "RSA" : "EC") signature verification failed, no match")
        }
    }

    /// What is signed: the message's digest, or the caller's digest, checked for length.
    private static func digest(of data: Data, _ input: KeyAlgorithmScheme.Input) throws(KeyFailure) -> Data {
        switch input {
        case .message(let hash):
            return hash.hash(data)
        case .digest(let hash?):
            guard data.count == hash.byteCount else {
                throw KeyFailure(.param, "bad digest size for the algorithm: \(data.count) bytes, \(hash.name) has \(hash.byteCount)")
            }
            return data
        case .digest(nil):
            return data
        }
    }

    /// The block the private operation signs (and the public operation of a valid
    /// signature gives back), for the deterministic paddings; a fresh PSS encoding for PSS.
    private static func rsaBlock(for data: Data, _ input: KeyAlgorithmScheme.Input,
                                 _ padding: KeyAlgorithmScheme.RSASignaturePadding,
                                 modulusBits: Int) throws(KeyFailure) -> Data {
        let size = RSARawOperation.byteCount(bits: modulusBits)
        let hashed = try digest(of: data, input)
        switch (padding, input) {
        case (.raw, _):
            guard hashed.count <= size else {
                throw KeyFailure(.param, "the data is longer than the key's block size (\(size) bytes)")
            }
            return RSARawOperation.leftPadded(hashed, to: size)
        case (.pkcs1v15, .message(let hash)), (.pkcs1v15, .digest(let hash?)):
            return try RSAPadding.pkcs1v15SignatureBlock(Data(hash.digestInfoPrefix) + hashed, size: size)
        case (.pkcs1v15, .digest(nil)):
            return try RSAPadding.pkcs1v15SignatureBlock(hashed, size: size)
        case (.pss, .message(let hash)), (.pss, .digest(let hash?)):
            return try RSAPadding.pssBlock(digest: hashed, hash: hash, modulusBits: modulusBits)
        case (.pss, .digest(nil)):
            throw KeyFailure(.param, "PSS needs a hash function")
        }
    }
}
