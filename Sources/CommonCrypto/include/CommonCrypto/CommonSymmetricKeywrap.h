#ifndef SWIFT_KEYCHAIN_COMMONSYMMETRICKEYWRAP_H
#define SWIFT_KEYCHAIN_COMMONSYMMETRICKEYWRAP_H

#include <stddef.h>
#include <stdint.h>

/// A key wrapping algorithm.
typedef uint32_t CCWrappingAlgorithm;
enum {
    kCCWRAPAES = 1,
};

/// RFC 3394's default initial value, A6A6A6A6A6A6A6A6: the only one these calls take.
extern const uint8_t *const CCrfc3394_iv;
/// Its length: 8.
extern const size_t CCrfc3394_ivLen;

/// AES key wrap (RFC 3394) of `rawKeyLen` bytes (at least 16, a multiple of 8) under a KEK of
/// 16, 24 or 32 bytes; `*wrappedKeyLen` gives the room and receives the size. kCCSuccess or
/// kCCParamError.
int CCSymmetricKeyWrap(CCWrappingAlgorithm algorithm, const uint8_t *iv, const size_t ivLen, const uint8_t *kek,
                       size_t kekLen, const uint8_t *rawKey, size_t rawKeyLen, uint8_t *wrappedKey,
                       size_t *wrappedKeyLen);
/// Unwraps; kCCDecodeError when the wrapped key fails its integrity check.
int CCSymmetricKeyUnwrap(CCWrappingAlgorithm algorithm, const uint8_t *iv, const size_t ivLen, const uint8_t *kek,
                         size_t kekLen, const uint8_t *wrappedKey, size_t wrappedKeyLen, uint8_t *rawKey,
                         size_t *rawKeyLen);
/// The size of a wrapped key: 8 more than the key.
size_t CCSymmetricWrappedSize(CCWrappingAlgorithm algorithm, size_t rawKeyLen);
/// The size of an unwrapped key: 8 less than the wrapped key (0 below 8).
size_t CCSymmetricUnwrappedSize(CCWrappingAlgorithm algorithm, size_t wrappedKeyLen);

#endif
