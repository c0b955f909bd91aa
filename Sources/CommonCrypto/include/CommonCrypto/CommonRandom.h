#ifndef SWIFT_KEYCHAIN_COMMONRANDOM_H
#define SWIFT_KEYCHAIN_COMMONRANDOM_H

#include <stddef.h>
#include "CommonCryptoError.h"

/// The status of a random number call.
typedef CCCryptorStatus CCRNGStatus;

/// Fills `count` bytes at `bytes` from the system's cryptographically secure generator.
/// kCCSuccess, or kCCParamError for a null pointer with a nonzero count.
CCRNGStatus CCRandomGenerateBytes(void *bytes, size_t count);

#endif
