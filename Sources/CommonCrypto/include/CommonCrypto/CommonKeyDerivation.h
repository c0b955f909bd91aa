#ifndef SWIFT_KEYCHAIN_COMMONKEYDERIVATION_H
#define SWIFT_KEYCHAIN_COMMONKEYDERIVATION_H

#include <stddef.h>
#include <stdint.h>

/// A key derivation algorithm.
typedef uint32_t CCPBKDFAlgorithm;
enum {
    kCCPBKDF2 = 2,
};

/// The pseudorandom function of PBKDF2.
typedef uint32_t CCPseudoRandomAlgorithm;
enum {
    kCCPRFHmacAlgSHA1 = 1,
    kCCPRFHmacAlgSHA224 = 2,
    kCCPRFHmacAlgSHA256 = 3,
    kCCPRFHmacAlgSHA384 = 4,
    kCCPRFHmacAlgSHA512 = 5,
};

/// PBKDF2: `derivedKeyLen` bytes into `derivedKey`. kCCSuccess, or kCCParamError for an
/// algorithm other than kCCPBKDF2, an unknown PRF, a null pointer, no rounds or no output.
int CCKeyDerivationPBKDF(CCPBKDFAlgorithm algorithm, const char *password, size_t passwordLen, const uint8_t *salt,
                         size_t saltLen, CCPseudoRandomAlgorithm prf, unsigned rounds, uint8_t *derivedKey,
                         size_t derivedKeyLen);
/// The rounds that take about `msec` milliseconds here for these sizes; UINT_MAX for bad
/// parameters.
unsigned CCCalibratePBKDF(CCPBKDFAlgorithm algorithm, size_t passwordLen, size_t saltLen, CCPseudoRandomAlgorithm prf,
                          size_t derivedKeyLen, uint32_t msec);

#endif
