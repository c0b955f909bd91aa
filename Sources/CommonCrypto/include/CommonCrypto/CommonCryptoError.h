#ifndef SWIFT_KEYCHAIN_COMMONCRYPTOERROR_H
#define SWIFT_KEYCHAIN_COMMONCRYPTOERROR_H

#include <stdint.h>

/// The status of a CommonCrypto call.
typedef int32_t CCStatus;
/// The status of a cryptor call.
typedef int32_t CCCryptorStatus;

enum {
    /// The operation completed normally.
    kCCSuccess = 0,
    /// Illegal parameter value: an unknown algorithm, option or mode, a null pointer, a wrong IV.
    kCCParamError = -4300,
    /// The output buffer is too small; where the call returns a size, it is the size needed.
    kCCBufferTooSmall = -4301,
    /// Memory allocation failed.
    kCCMemoryFailure = -4302,
    /// The input is not whole blocks and there is no padding to add.
    kCCAlignmentError = -4303,
    /// The input did not decode: wrong padding, or a wrapped key that fails its check.
    kCCDecodeError = -4304,
    /// The algorithm or mode is not available.
    kCCUnimplemented = -4305,
    /// A length overflowed.
    kCCOverflow = -4306,
    /// The random number generator failed.
    kCCRNGFailure = -4307,
    /// An error not covered by the other codes.
    kCCUnspecifiedError = -4308,
    /// A call made out of order.
    kCCCallSequenceError = -4309,
    /// A key of a size the algorithm does not take.
    kCCKeySizeError = -4310,
    /// The key is not valid.
    kCCInvalidKey = -4311,
};

#endif
