import CommonCrypto
import Crypto
import CryptoExtras
import Foundation

// CommonKeyDerivation: PBKDF2 with HMAC over SHA-1 or SHA-2, on CryptoExtras' PBKDF2.

private func pbkdf2HashFunction(_ prf: CCPseudoRandomAlgorithm) -> KDF.Insecure.PBKDF2.HashFunction? {
    switch Int(prf) {
    case kCCPRFHmacAlgSHA1: return .insecureSHA1
    case kCCPRFHmacAlgSHA224: return .insecureSHA224
    case kCCPRFHmacAlgSHA256: return .sha256
    case kCCPRFHmacAlgSHA384: return .sha384
    case kCCPRFHmacAlgSHA512: return .sha512
    default: return nil
    }
}

/// Derives `derivedKeyLen` bytes into `derivedKey` from a password and a salt with PBKDF2.
/// Returns ``kCCSuccess``, or ``kCCParamError`` for an algorithm other than ``kCCPBKDF2``, an
/// unknown `prf`, a null pointer, no rounds or no output, as on Apple platforms. The caller
/// chooses the rounds: none are refused for being few, as Apple refuses none.
@_cdecl("CCKeyDerivationPBKDF")
func exportedCCKeyDerivationPBKDF(
    _ algorithm: CCPBKDFAlgorithm, _ password: UnsafePointer<CChar>!, _ passwordLen: Int, _ salt: UnsafePointer<UInt8>!,
    _ saltLen: Int, _ prf: CCPseudoRandomAlgorithm, _ rounds: UInt32, _ derivedKey: UnsafeMutablePointer<UInt8>!,
    _ derivedKeyLen: Int
) -> Int32 {
    guard algorithm == CCPBKDFAlgorithm(kCCPBKDF2), let hashFunction = pbkdf2HashFunction(prf),
          let password, let salt, let derivedKey, derivedKeyLen > 0, rounds > 0, passwordLen >= 0, saltLen >= 0
    else { return status(kCCParamError) }
    let passwordBytes = UnsafeRawBufferPointer(start: password, count: passwordLen)
    let saltBytes = UnsafeRawBufferPointer(start: salt, count: saltLen)
    guard let key = try? KDF.Insecure.PBKDF2.deriveKey(
        from: passwordBytes, salt: saltBytes, using: hashFunction, outputByteCount: derivedKeyLen,
        unsafeUncheckedRounds: Int(rounds))
    else { return status(kCCParamError) }
    // The derived key stays in swift-crypto's zeroed storage until it is copied out here.
    key.withUnsafeBytes { UnsafeMutableRawPointer(derivedKey).copyMemory(from: $0.baseAddress!, byteCount: derivedKeyLen) }
    return status(kCCSuccess)
}

/// The number of PBKDF2 rounds that take about `msec` milliseconds on this machine for these
/// sizes, measured as Apple measures it; `UInt32.max` for bad parameters.
@_cdecl("CCCalibratePBKDF")
func exportedCCCalibratePBKDF(
    _ algorithm: CCPBKDFAlgorithm, _ passwordLen: Int, _ saltLen: Int, _ prf: CCPseudoRandomAlgorithm,
    _ derivedKeyLen: Int, _ msec: UInt32
) -> UInt32 {
    guard algorithm == CCPBKDFAlgorithm(kCCPBKDF2), pbkdf2HashFunction(prf) != nil, derivedKeyLen > 0,
          derivedKeyLen <= 1024, saltLen > 0, saltLen <= 1024, passwordLen >= 0, passwordLen <= 1024
    else { return UInt32.max }
    let password = [CChar](repeating: 0x61, count: max(passwordLen, 1))
    let salt = (0..<saltLen).map { UInt8(truncatingIfNeeded: $0) }
    var output = [UInt8](repeating: 0, count: derivedKeyLen)
    let measuredRounds: UInt32 = 10_000
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        _ = CCKeyDerivationPBKDF(algorithm, password, password.count, salt, salt.count, prf, measuredRounds, &output,
                                 derivedKeyLen)
    }
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    guard nanoseconds > 0 else { return measuredRounds }
    let rounds = Double(msec) * 1e6 / nanoseconds * Double(measuredRounds)
    return UInt32(min(max(rounds, 1), Double(UInt32.max - 1)))
}
