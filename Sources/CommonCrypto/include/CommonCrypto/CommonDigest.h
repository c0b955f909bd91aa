#ifndef SWIFT_KEYCHAIN_COMMONDIGEST_H
#define SWIFT_KEYCHAIN_COMMONDIGEST_H

#include <stdint.h>

/// The length type of the digest calls.
typedef uint32_t CC_LONG;
/// The 64-bit length type.
typedef uint64_t CC_LONG64;

#define CC_MD5_DIGEST_LENGTH 16
#define CC_MD5_BLOCK_BYTES 64
#define CC_SHA1_DIGEST_LENGTH 20
#define CC_SHA1_BLOCK_BYTES 64
#define CC_SHA224_DIGEST_LENGTH 28
#define CC_SHA224_BLOCK_BYTES 64
#define CC_SHA256_DIGEST_LENGTH 32
#define CC_SHA256_BLOCK_BYTES 64
#define CC_SHA384_DIGEST_LENGTH 48
#define CC_SHA384_BLOCK_BYTES 128
#define CC_SHA512_DIGEST_LENGTH 64
#define CC_SHA512_BLOCK_BYTES 128

// The contexts have the size of Apple's. What they hold is this implementation's own: a
// handle to the hash in progress, so that they may be allocated without being initialized.
// A copy of a context in progress continues the same hash rather than a separate one.

/// The context of an MD5 computation.
typedef struct CC_MD5state_st {
    CC_LONG A, B, C, D;
    CC_LONG Nl, Nh;
    CC_LONG data[16];
    int num;
} CC_MD5_CTX;

/// The context of a SHA-1 computation.
typedef struct CC_SHA1state_st {
    CC_LONG h0, h1, h2, h3, h4;
    CC_LONG Nl, Nh;
    CC_LONG data[16];
    int num;
} CC_SHA1_CTX;

/// The context of a SHA-224 or SHA-256 computation.
typedef struct CC_SHA256state_st {
    CC_LONG count[2];
    CC_LONG hash[8];
    CC_LONG wbuf[16];
} CC_SHA256_CTX;

/// The context of a SHA-384 or SHA-512 computation.
typedef struct CC_SHA512state_st {
    CC_LONG64 count[2];
    CC_LONG64 hash[8];
    CC_LONG64 wbuf[16];
} CC_SHA512_CTX;

// One-shot digests: hash `len` bytes at `data` into `md`, and return `md`; a null `md`, or a
// null `data` with a nonzero length, returns NULL and writes nothing.
// Incremental digests: Init, Update as often as needed, Final; each returns 1, or 0 (writing
// nothing) for a null pointer, a context never initialized, or one of another algorithm.

unsigned char *CC_MD5(const void *data, CC_LONG len, unsigned char *md);
int CC_MD5_Init(CC_MD5_CTX *c);
int CC_MD5_Update(CC_MD5_CTX *c, const void *data, CC_LONG len);
int CC_MD5_Final(unsigned char *md, CC_MD5_CTX *c);

unsigned char *CC_SHA1(const void *data, CC_LONG len, unsigned char *md);
int CC_SHA1_Init(CC_SHA1_CTX *c);
int CC_SHA1_Update(CC_SHA1_CTX *c, const void *data, CC_LONG len);
int CC_SHA1_Final(unsigned char *md, CC_SHA1_CTX *c);

unsigned char *CC_SHA224(const void *data, CC_LONG len, unsigned char *md);
int CC_SHA224_Init(CC_SHA256_CTX *c);
int CC_SHA224_Update(CC_SHA256_CTX *c, const void *data, CC_LONG len);
int CC_SHA224_Final(unsigned char *md, CC_SHA256_CTX *c);

unsigned char *CC_SHA256(const void *data, CC_LONG len, unsigned char *md);
int CC_SHA256_Init(CC_SHA256_CTX *c);
int CC_SHA256_Update(CC_SHA256_CTX *c, const void *data, CC_LONG len);
int CC_SHA256_Final(unsigned char *md, CC_SHA256_CTX *c);

unsigned char *CC_SHA384(const void *data, CC_LONG len, unsigned char *md);
int CC_SHA384_Init(CC_SHA512_CTX *c);
int CC_SHA384_Update(CC_SHA512_CTX *c, const void *data, CC_LONG len);
int CC_SHA384_Final(unsigned char *md, CC_SHA512_CTX *c);

unsigned char *CC_SHA512(const void *data, CC_LONG len, unsigned char *md);
int CC_SHA512_Init(CC_SHA512_CTX *c);
int CC_SHA512_Update(CC_SHA512_CTX *c, const void *data, CC_LONG len);
int CC_SHA512_Final(unsigned char *md, CC_SHA512_CTX *c);

#endif
