// Apple's CommonCrypto API on Linux, over swift-crypto. The declarations are written anew
// with Apple's names, types and values, so that Swift imports them as it imports Apple's
// headers (anonymous enums as Int, macros as Int32, pointers implicitly unwrapped). A C module
// rather than a Swift one: a Swift module named CommonCrypto on the build's shared module path
// would change how swift-crypto's CryptoExtras compiles (`#if canImport(CommonCrypto)`).
#ifndef SWIFT_KEYCHAIN_COMMONCRYPTO_H
#define SWIFT_KEYCHAIN_COMMONCRYPTO_H

#include "CommonCryptoError.h"
#include "CommonDigest.h"
#include "CommonHMAC.h"
#include "CommonCryptor.h"
#include "CommonKeyDerivation.h"
#include "CommonSymmetricKeywrap.h"
#include "CommonRandom.h"

#endif
