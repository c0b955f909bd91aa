import CommonCrypto
import Crypto

// CommonSymmetricKeywrap: AES key wrap (RFC 3394) on swift-crypto's AES.KeyWrap.

/// Whether an IV is RFC 3394's default, which is what swift-crypto's key wrap uses.
private func isDefaultInitialValue(_ iv: UnsafePointer<UInt8>?, _ ivLen: Int) -> Bool {
    guard let iv, ivLen == CCrfc3394_ivLen else { return false }
    return Array(UnsafeBufferPointer(start: iv, count: ivLen)) == Array(UnsafeBufferPointer(start: CCrfc3394_iv, count: ivLen))
}

/// Wraps the `rawKeyLen` bytes at `rawKey` (at least 16, a multiple of 8) under the key
/// encryption key `kek` (16, 24 or 32 bytes) into `wrappedKey`, whose size `wrappedKeyLen`
/// gives (at least ``CCSymmetricWrappedSize(_:_:)``) and receives. Returns ``kCCSuccess`` or
/// ``kCCParamError``, which an IV other than ``CCrfc3394_iv`` also gets.
@_cdecl("CCSymmetricKeyWrap")
func exportedCCSymmetricKeyWrap(
    _ algorithm: CCWrappingAlgorithm, _ iv: UnsafePointer<UInt8>!, _ ivLen: Int, _ kek: UnsafePointer<UInt8>!, _ kekLen: Int,
    _ rawKey: UnsafePointer<UInt8>!, _ rawKeyLen: Int, _ wrappedKey: UnsafeMutablePointer<UInt8>!,
    _ wrappedKeyLen: UnsafeMutablePointer<Int>!
) -> Int32 {
    guard algorithm == CCWrappingAlgorithm(kCCWRAPAES), isDefaultInitialValue(iv, ivLen), let kek,
          [16, 24, 32].contains(kekLen), let rawKey, rawKeyLen >= 16, rawKeyLen % 8 == 0, let wrappedKey,
          let wrappedKeyLen, wrappedKeyLen.pointee >= rawKeyLen + 8
    else { return status(kCCParamError) }
    let keyEncryptionKey = SymmetricKey(data: UnsafeRawBufferPointer(start: kek, count: kekLen))
    let keyToWrap = SymmetricKey(data: UnsafeRawBufferPointer(start: rawKey, count: rawKeyLen))
    guard let wrapped = try? AES.KeyWrap.wrap(keyToWrap, using: keyEncryptionKey) else { return status(kCCParamError) }
    wrapped.withUnsafeBytes { UnsafeMutableRawPointer(wrappedKey).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    wrappedKeyLen.pointee = wrapped.count
    return status(kCCSuccess)
}

/// Unwraps the `wrappedKeyLen` bytes at `wrappedKey` under `kek` into `rawKey`, whose size
/// `rawKeyLen` gives (at least ``CCSymmetricUnwrappedSize(_:_:)``) and receives. Returns
/// ``kCCSuccess``, ``kCCParamError`` for bad parameters, or ``kCCDecodeError`` when the wrapped
/// key fails its integrity check (a wrong key encryption key, or altered bytes), writing nothing.
@_cdecl("CCSymmetricKeyUnwrap")
func exportedCCSymmetricKeyUnwrap(
    _ algorithm: CCWrappingAlgorithm, _ iv: UnsafePointer<UInt8>!, _ ivLen: Int, _ kek: UnsafePointer<UInt8>!, _ kekLen: Int,
    _ wrappedKey: UnsafePointer<UInt8>!, _ wrappedKeyLen: Int, _ rawKey: UnsafeMutablePointer<UInt8>!,
    _ rawKeyLen: UnsafeMutablePointer<Int>!
) -> Int32 {
    guard algorithm == CCWrappingAlgorithm(kCCWRAPAES), isDefaultInitialValue(iv, ivLen), let kek,
          [16, 24, 32].contains(kekLen), let wrappedKey, wrappedKeyLen >= 24, wrappedKeyLen % 8 == 0, let rawKey,
          let rawKeyLen, rawKeyLen.pointee >= wrappedKeyLen - 8
    else { return status(kCCParamError) }
    let keyEncryptionKey = SymmetricKey(data: UnsafeRawBufferPointer(start: kek, count: kekLen))
    let wrapped = UnsafeRawBufferPointer(start: wrappedKey, count: wrappedKeyLen)
    guard let unwrapped = try? AES.KeyWrap.unwrap(wrapped, using: keyEncryptionKey) else { return status(kCCDecodeError) }
    unwrapped.withUnsafeBytes { UnsafeMutableRawPointer(rawKey).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    rawKeyLen.pointee = unwrapped.bitCount / 8
    return status(kCCSuccess)
}

/// The size of a wrapped key: 8 bytes more than the key.
@_cdecl("CCSymmetricWrappedSize")
func exportedCCSymmetricWrappedSize(_ algorithm: CCWrappingAlgorithm, _ rawKeyLen: Int) -> Int {
    rawKeyLen + 8
}

/// The size of an unwrapped key: 8 bytes less than the wrapped key (0 for less than 8).
@_cdecl("CCSymmetricUnwrappedSize")
func exportedCCSymmetricUnwrappedSize(_ algorithm: CCWrappingAlgorithm, _ wrappedKeyLen: Int) -> Int {
    max(wrappedKeyLen - 8, 0)
}
