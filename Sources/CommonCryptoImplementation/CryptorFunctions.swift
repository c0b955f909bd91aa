import CommonCrypto
import Crypto
import Foundation
internal import LegacyCiphers
#if canImport(Glibc)
import Glibc
#endif

// CommonCryptor's calls. A cryptor reference is checked against the cryptors alive in the
// process, so a null, released or made-up reference returns kCCParamError rather than
// reading freed memory as C would.

/// The cryptors alive in this process, by the address behind their `CCCryptorRef`.
private final class LiveCryptors: @unchecked Sendable {
    static let shared = LiveCryptors()
    private let lock = NSLock()
    private var cryptors: [UnsafeMutableRawPointer: Cryptor] = [:]

    func add(_ cryptor: Cryptor) -> CCCryptorRef {
        let address = Unmanaged.passUnretained(cryptor).toOpaque()
        lock.withLock { cryptors[address] = cryptor }
        return CCCryptorRef(address)
    }

    func find(_ reference: CCCryptorRef?) -> Cryptor? {
        guard let reference else { return nil }
        return lock.withLock { cryptors[UnsafeMutableRawPointer(reference)] }
    }

    func remove(_ reference: CCCryptorRef) -> Cryptor? {
        lock.withLock { cryptors.removeValue(forKey: UnsafeMutableRawPointer(reference)) }
    }
}

/// Checks the arguments of a cryptor and makes it, or returns the status Apple returns.
private func makeCryptor(
    _ op: CCOperation, _ mode: Cryptor.Mode, _ alg: CCAlgorithm, padding: Bool, _ key: UnsafeRawPointer?, _ keyLength: Int,
    _ iv: UnsafeRawPointer?
) -> Result<Cryptor, StatusCode> {
    guard op == CCOperation(kCCEncrypt) || op == CCOperation(kCCDecrypt) else { return .failure(StatusCode(kCCParamError)) }
    guard alg <= 6 else { return .failure(StatusCode(kCCParamError)) }
    let cipher: Cryptor.Cipher
    switch Int(alg) {
    case _ where mode == .rc4 && Int(alg) != kCCAlgorithmRC4:
        // RC4's mode takes RC4 only.
        return .failure(StatusCode(kCCParamError))
    case kCCAlgorithmAES:
        guard let key else { return .failure(StatusCode(kCCParamError)) }
        guard [kCCKeySizeAES128, kCCKeySizeAES192, kCCKeySizeAES256].contains(keyLength) else {
            return .failure(StatusCode(kCCKeySizeError))
        }
        // SymmetricKey keeps its copy of the key in memory swift-crypto zeroes when it is freed.
        cipher = .aes(SymmetricKey(data: UnsafeRawBufferPointer(start: key, count: keyLength)))
    case kCCAlgorithmRC4:
        // A stream cipher with a mode of its own (CCCryptorCreate gives it whatever its options).
        guard mode == .rc4 else { return .failure(StatusCode(kCCParamError)) }
        guard let key else { return .failure(StatusCode(kCCParamError)) }
        guard (kCCKeySizeMinRC4...kCCKeySizeMaxRC4).contains(keyLength) else { return .failure(StatusCode(kCCKeySizeError)) }
        var bytes = Array(UnsafeRawBufferPointer(start: key, count: keyLength))
        defer { Cryptor.zero(&bytes) }
        guard let stream = RC4Stream(key: bytes) else { return .failure(StatusCode(kCCKeySizeError)) }
        return .success(Cryptor(encrypting: op == CCOperation(kCCEncrypt), mode: .rc4, padding: false,
                                cipher: .rc4(stream), iv: nil))
    case kCCAlgorithmDES, kCCAlgorithm3DES:
        // No CTR over DES here (Apple's other modes over DES are not offered either).
        guard mode != .ctr else { return .failure(StatusCode(kCCUnimplemented)) }
        guard let key else { return .failure(StatusCode(kCCParamError)) }
        guard keyLength == (Int(alg) == kCCAlgorithmDES ? kCCKeySizeDES : kCCKeySize3DES) else {
            return .failure(StatusCode(kCCKeySizeError))
        }
        var bytes = Array(UnsafeRawBufferPointer(start: key, count: keyLength))
        defer { Cryptor.zero(&bytes) }
        guard let des = TripleDES(key: bytes) else { return .failure(StatusCode(kCCKeySizeError)) }
        cipher = .des(des)
    default:
        // swift-crypto's BoringSSL has no CAST, RC2 or Blowfish.
        return .failure(StatusCode(kCCUnimplemented))
    }
    return .success(Cryptor(encrypting: op == CCOperation(kCCEncrypt), mode: mode, padding: padding, cipher: cipher, iv: iv))
}

/// A cryptor of `CCCryptorCreate` and `CCCrypt`: CBC, or ECB with ``kCCOptionECBMode``.
private func makeCryptor(
    _ op: CCOperation, _ alg: CCAlgorithm, _ options: CCOptions, _ key: UnsafeRawPointer?, _ keyLength: Int,
    _ iv: UnsafeRawPointer?
) -> Result<Cryptor, StatusCode> {
    let mode: Cryptor.Mode = alg == CCAlgorithm(kCCAlgorithmRC4) ? .rc4
        : options & CCOptions(kCCOptionECBMode) != 0 ? .ecb : .cbc
    return makeCryptor(op, mode, alg, padding: options & CCOptions(kCCOptionPKCS7Padding) != 0, key, keyLength, iv)
}

/// The bytes of a C input buffer; a null pointer passes only with a zero length.
private func inputBytes(_ data: UnsafeRawPointer?, _ length: Int) -> UnsafeRawBufferPointer? {
    DigestState.bytes(data, length)
}

/// The room of a C output buffer; a null pointer has none.
private func outputRoom(_ data: UnsafeMutableRawPointer?, _ available: Int) -> UnsafeMutableRawBufferPointer {
    guard let data, available > 0 else { return UnsafeMutableRawBufferPointer(start: nil, count: 0) }
    return UnsafeMutableRawBufferPointer(start: data, count: available)
}

/// Makes a cryptor for AES (``kCCAlgorithmAES``), DES (``kCCAlgorithmDES``) or Triple DES
/// (``kCCAlgorithm3DES``) in CBC mode, or ECB with ``kCCOptionECBMode``, padding with
/// ``kCCOptionPKCS7Padding``. `iv` is a block (16 bytes for AES, 8 for DES) or null for zeros;
/// ECB ignores it. Returns ``kCCParamError`` for an unknown operation or algorithm or a null
/// key, ``kCCKeySizeError`` for a key of another size than the algorithm's (AES 16, 24 or 32
/// bytes, DES 8, Triple DES 24), ``kCCUnimplemented`` for Apple's other algorithms. Release
/// the cryptor with ``CCCryptorRelease(_:)``.
@_cdecl("CCCryptorCreate")
func exportedCCCryptorCreate(
    _ op: CCOperation, _ alg: CCAlgorithm, _ options: CCOptions, _ key: UnsafeRawPointer!, _ keyLength: Int,
    _ iv: UnsafeRawPointer!, _ cryptorRef: UnsafeMutablePointer<CCCryptorRef?>!
) -> CCCryptorStatus {
    guard let cryptorRef else { return status(kCCParamError) }
    switch makeCryptor(op, alg, options, key, keyLength, iv) {
    case .success(let cryptor):
        cryptorRef.pointee = LiveCryptors.shared.add(cryptor)
        return status(kCCSuccess)
    case .failure(let failure):
        cryptorRef.pointee = nil
        return status(failure.code)
    }
}

/// Makes a cryptor in a mode: ``kCCModeECB``, ``kCCModeCBC`` (with ``ccNoPadding`` or
/// ``ccPKCS7Padding``), the streams ``kCCModeCFB``, ``kCCModeCFB8`` and ``kCCModeOFB`` (from
/// `iv`; padding is ignored), or, for AES, ``kCCModeCTR`` (a stream with a 128-bit big-endian
/// counter starting at `iv`). The tweak and the number of rounds are not used.
/// Returns ``kCCUnimplemented`` for Apple's other modes, ``kCCParamError`` for an unknown mode or
/// padding, and otherwise what ``CCCryptorCreate(_:_:_:_:_:_:_:)`` returns.
@_cdecl("CCCryptorCreateWithMode")
func exportedCCCryptorCreateWithMode(
    _ op: CCOperation, _ mode: CCMode, _ alg: CCAlgorithm, _ padding: CCPadding, _ iv: UnsafeRawPointer!,
    _ key: UnsafeRawPointer!, _ keyLength: Int, _ tweak: UnsafeRawPointer!, _ tweakLength: Int, _ numRounds: Int32,
    _ options: CCModeOptions, _ cryptorRef: UnsafeMutablePointer<CCCryptorRef?>!
) -> CCCryptorStatus {
    guard let cryptorRef else { return status(kCCParamError) }
    cryptorRef.pointee = nil
    let cryptorMode: Cryptor.Mode
    switch Int(mode) {
    case kCCModeECB: cryptorMode = .ecb
    case kCCModeCBC: cryptorMode = .cbc
    case kCCModeCTR:
        // Apple's CTR counts big-endian; the little-endian option was never implemented.
        guard options & CCModeOptions(kCCModeOptionCTR_LE) == 0 else { return status(kCCUnimplemented) }
        cryptorMode = .ctr
    case kCCModeCFB: cryptorMode = .cfb
    case kCCModeCFB8: cryptorMode = .cfb8
    case kCCModeOFB: cryptorMode = .ofb
    case kCCModeRC4: cryptorMode = .rc4
    case kCCModeXTS: return status(kCCUnimplemented)
    default: return status(kCCParamError)
    }
    guard padding == CCPadding(ccNoPadding) || padding == CCPadding(ccPKCS7Padding) else { return status(kCCParamError) }
    switch makeCryptor(op, cryptorMode, alg, padding: padding == CCPadding(ccPKCS7Padding), key, keyLength, iv) {
    case .success(let cryptor):
        cryptorRef.pointee = LiveCryptors.shared.add(cryptor)
        return status(kCCSuccess)
    case .failure(let failure):
        return status(failure.code)
    }
}

/// Encrypts or decrypts `dataInLength` bytes, writing whole blocks to `dataOut` and holding the
/// rest. `dataOut` may be `dataIn` itself. ``kCCBufferTooSmall`` when `dataOutAvailable` is
/// less than ``CCCryptorGetOutputLength(_:_:_:)`` says, with that size in `dataOutMoved`.
@_cdecl("CCCryptorUpdate")
func exportedCCCryptorUpdate(
    _ cryptorRef: CCCryptorRef!, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int, _ dataOut: UnsafeMutableRawPointer!,
    _ dataOutAvailable: Int, _ dataOutMoved: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    dataOutMoved?.pointee = 0
    guard let cryptor = LiveCryptors.shared.find(cryptorRef) else { return status(kCCParamError) }
    if dataInLength == 0 { return status(kCCSuccess) }
    guard let input = inputBytes(dataIn, dataInLength) else { return status(kCCParamError) }
    return report(cryptor.update(input, into: outputRoom(dataOut, dataOutAvailable)), movedTo: dataOutMoved)
}

/// Ends the operation: writes the padded last block when encrypting with padding, or the last
/// block without its padding when decrypting; ``kCCDecodeError`` when that padding is wrong,
/// ``kCCAlignmentError`` when the input was not whole blocks and there is no padding to add.
@_cdecl("CCCryptorFinal")
func exportedCCCryptorFinal(
    _ cryptorRef: CCCryptorRef!, _ dataOut: UnsafeMutableRawPointer!, _ dataOutAvailable: Int,
    _ dataOutMoved: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    dataOutMoved?.pointee = 0
    guard let cryptor = LiveCryptors.shared.find(cryptorRef) else { return status(kCCParamError) }
    return report(cryptor.finish(into: outputRoom(dataOut, dataOutAvailable)), movedTo: dataOutMoved)
}

/// A cryptor step's status, with the bytes it wrote, or the room it needed, in `dataOutMoved`.
private func report(_ result: Result<Int, StatusCode>, movedTo dataOutMoved: UnsafeMutablePointer<Int>?) -> CCCryptorStatus {
    switch result {
    case .success(let moved):
        dataOutMoved?.pointee = moved
        return status(kCCSuccess)
    case .failure(let failure):
        if let needed = failure.needed { dataOutMoved?.pointee = needed }
        return status(failure.code)
    }
}

/// Frees a cryptor and zeroes its key and buffers. A null reference is ``kCCSuccess``, as on
/// Apple platforms; one already released, ``kCCParamError``.
@_cdecl("CCCryptorRelease")
func exportedCCCryptorRelease(_ cryptorRef: CCCryptorRef!) -> CCCryptorStatus {
    guard let cryptorRef else { return status(kCCSuccess) }
    return LiveCryptors.shared.remove(cryptorRef) == nil ? status(kCCParamError) : status(kCCSuccess)
}

/// The output an update of `inputLength` bytes writes, or with `final`, the update and
/// ``CCCryptorFinal(_:_:_:_:)`` together (an upper bound when decrypting with padding).
/// 0 for an unknown cryptor.
@_cdecl("CCCryptorGetOutputLength")
func exportedCCCryptorGetOutputLength(_ cryptorRef: CCCryptorRef!, _ inputLength: Int, _ final: Bool) -> Int {
    guard let cryptor = LiveCryptors.shared.find(cryptorRef), inputLength >= 0 else { return 0 }
    return cryptor.outputLength(inputLength, final: final)
}

/// Drops held input and sets a new IV (null: zeros), to start a new message with the same key:
/// for CBC and CTR only, as Apple's does for programs built since macOS 10.13 and iOS 11. A
/// cryptor of another mode (ECB, the feedback modes, RC4) is left as it was, and the status is
/// kCCUnimplemented: Apple's older behaviour, success with the IV ignored, let a program
/// believe it had started a new message when it had not.
@_cdecl("CCCryptorReset")
func exportedCCCryptorReset(_ cryptorRef: CCCryptorRef!, _ iv: UnsafeRawPointer!) -> CCCryptorStatus {
    guard let cryptor = LiveCryptors.shared.find(cryptorRef) else { return status(kCCParamError) }
    guard cryptor.mode == .cbc || cryptor.mode == .ctr else { return status(kCCUnimplemented) }
    cryptor.reset(iv: iv)
    return status(kCCSuccess)
}

/// Encrypts or decrypts in one call: ``CCCryptorCreate(_:_:_:_:_:_:_:)``, an update and the
/// end. When `dataOutAvailable` is less than the output may need (for decryption with padding,
/// the input's length), returns ``kCCBufferTooSmall`` with that size in `dataOutMoved`.
@_cdecl("CCCrypt")
func exportedCCCrypt(
    _ op: CCOperation, _ alg: CCAlgorithm, _ options: CCOptions, _ key: UnsafeRawPointer!, _ keyLength: Int,
    _ iv: UnsafeRawPointer!, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int, _ dataOut: UnsafeMutableRawPointer!,
    _ dataOutAvailable: Int, _ dataOutMoved: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    let cryptor: Cryptor
    switch makeCryptor(op, alg, options, key, keyLength, iv) {
    case .success(let made): cryptor = made
    case .failure(let failure): return status(failure.code)
    }
    guard dataInLength >= 0, let input = inputBytes(dataIn, dataInLength) else { return status(kCCParamError) }
    let needed = cryptor.outputLength(dataInLength, final: true)
    if needed > dataOutAvailable || (needed > 0 && dataOut == nil) {
        dataOutMoved?.pointee = needed
        return status(kCCBufferTooSmall)
    }
    let output = outputRoom(dataOut, dataOutAvailable)
    let updated: Int
    switch cryptor.update(input, into: output) {
    case .success(let moved): updated = moved
    case .failure(let failure): return status(failure.code)
    }
    let rest = UnsafeMutableRawBufferPointer(rebasing: output[updated...])
    switch cryptor.finish(into: rest) {
    case .success(let moved):
        dataOutMoved?.pointee = updated + moved
        return status(kCCSuccess)
    case .failure(let failure):
        // Take back what the update wrote: none of a message whose padding is wrong is output.
        if updated > 0 { explicit_bzero(output.baseAddress!, updated) }
        return status(failure.code)
    }
}
