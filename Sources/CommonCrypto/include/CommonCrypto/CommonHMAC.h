#ifndef SWIFT_KEYCHAIN_COMMONHMAC_H
#define SWIFT_KEYCHAIN_COMMONHMAC_H

#include <stddef.h>
#include <stdint.h>

/// An HMAC algorithm.
typedef uint32_t CCHmacAlgorithm;

enum {
    kCCHmacAlgSHA1,
    kCCHmacAlgMD5,
    kCCHmacAlgSHA256,
    kCCHmacAlgSHA384,
    kCCHmacAlgSHA512,
    kCCHmacAlgSHA224,
};

#define CC_HMAC_CONTEXT_SIZE 96

/// The context of an HMAC computation, of Apple's size; it holds a handle to the HMAC in
/// progress, so it may be allocated without being initialized.
typedef struct {
    uint32_t ctx[CC_HMAC_CONTEXT_SIZE];
} CCHmacContext;

/// Starts an HMAC with `algorithm` and the `keyLength` bytes at `key`.
void CCHmacInit(CCHmacContext *ctx, CCHmacAlgorithm algorithm, const void *key, size_t keyLength);
/// Adds `dataLength` bytes at `data`.
void CCHmacUpdate(CCHmacContext *ctx, const void *data, size_t dataLength);
/// Writes the MAC (the algorithm's digest length) to `macOut` and empties the context.
void CCHmacFinal(CCHmacContext *ctx, void *macOut);
/// The HMAC of `dataLength` bytes at `data` with `algorithm` and the key, into `macOut`. An
/// unknown algorithm, or a null pointer with a nonzero length, writes nothing.
void CCHmac(CCHmacAlgorithm algorithm, const void *key, size_t keyLength, const void *data, size_t dataLength,
            void *macOut);

#endif
