#ifndef SWIFT_KEYCHAIN_COMMONCRYPTOR_H
#define SWIFT_KEYCHAIN_COMMONCRYPTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "CommonCryptoError.h"

/// A cryptor, made by CCCryptorCreate or CCCryptorCreateWithMode, freed by CCCryptorRelease.
typedef struct _CCCryptor *CCCryptorRef;

/// Encryption or decryption.
typedef uint32_t CCOperation;
enum {
    kCCEncrypt = 0,
    kCCDecrypt,
};

/// A symmetric algorithm. Only AES is available here; the others return kCCUnimplemented.
typedef uint32_t CCAlgorithm;
enum {
    kCCAlgorithmAES128 = 0,
    kCCAlgorithmAES = 0,
    kCCAlgorithmDES,
    kCCAlgorithm3DES,
    kCCAlgorithmCAST,
    kCCAlgorithmRC4,
    kCCAlgorithmRC2,
    kCCAlgorithmBlowfish,
};

/// Options of CCCryptorCreate and CCCrypt: PKCS #7 padding, and ECB rather than CBC.
typedef uint32_t CCOptions;
enum {
    kCCOptionPKCS7Padding = 0x0001,
    kCCOptionECBMode = 0x0002,
};

enum {
    kCCKeySizeAES128 = 16,
    kCCKeySizeAES192 = 24,
    kCCKeySizeAES256 = 32,
    kCCKeySizeDES = 8,
    kCCKeySize3DES = 24,
    kCCKeySizeMinCAST = 5,
    kCCKeySizeMaxCAST = 16,
    kCCKeySizeMinRC4 = 1,
    kCCKeySizeMaxRC4 = 512,
    kCCKeySizeMinRC2 = 1,
    kCCKeySizeMaxRC2 = 128,
    kCCKeySizeMinBlowfish = 8,
    kCCKeySizeMaxBlowfish = 56,
};

enum {
    kCCBlockSizeAES128 = 16,
    kCCBlockSizeDES = 8,
    kCCBlockSize3DES = 8,
    kCCBlockSizeCAST = 8,
    kCCBlockSizeRC2 = 8,
    kCCBlockSizeBlowfish = 8,
};

/// A mode of CCCryptorCreateWithMode: ECB, CBC and CTR are available here.
typedef uint32_t CCMode;
enum {
    kCCModeECB = 1,
    kCCModeCBC = 2,
    kCCModeCFB = 3,
    kCCModeCTR = 4,
    kCCModeOFB = 7,
    kCCModeXTS = 8,
    kCCModeRC4 = 9,
    kCCModeCFB8 = 10,
};

/// A padding of CCCryptorCreateWithMode.
typedef uint32_t CCPadding;
enum {
    ccNoPadding = 0,
    ccPKCS7Padding = 1,
};

/// Options of a mode: CTR counts big-endian.
typedef uint32_t CCModeOptions;
enum {
    kCCModeOptionCTR_LE = 0x0001,
    kCCModeOptionCTR_BE = 0x0002,
};

/// Makes an AES cryptor, CBC or ECB (kCCOptionECBMode), with or without kCCOptionPKCS7Padding.
/// `iv` is a block, or NULL for zeros. kCCParamError for an unknown operation or algorithm or a
/// null key, kCCKeySizeError for a key not of 16, 24 or 32 bytes.
CCCryptorStatus CCCryptorCreate(CCOperation op, CCAlgorithm alg, CCOptions options, const void *key, size_t keyLength,
                                const void *iv, CCCryptorRef *cryptorRef);
/// Makes an AES cryptor in kCCModeECB, kCCModeCBC or kCCModeCTR; the other modes are
/// kCCUnimplemented. The tweak and the number of rounds are not used.
CCCryptorStatus CCCryptorCreateWithMode(CCOperation op, CCMode mode, CCAlgorithm alg, CCPadding padding, const void *iv,
                                        const void *key, size_t keyLength, const void *tweak, size_t tweakLength,
                                        int numRounds, CCModeOptions options, CCCryptorRef *cryptorRef);
/// Frees a cryptor and zeroes its key and buffers. NULL is kCCSuccess; a cryptor already
/// released is kCCParamError.
CCCryptorStatus CCCryptorRelease(CCCryptorRef cryptorRef);
/// Processes input, writing whole blocks and holding the rest; kCCBufferTooSmall with the
/// size needed in `dataOutMoved` when the output is too small.
CCCryptorStatus CCCryptorUpdate(CCCryptorRef cryptorRef, const void *dataIn, size_t dataInLength, void *dataOut,
                                size_t dataOutAvailable, size_t *dataOutMoved);
/// Ends the operation: the padded last block, or the last block without its padding
/// (kCCDecodeError when that padding is wrong).
CCCryptorStatus CCCryptorFinal(CCCryptorRef cryptorRef, void *dataOut, size_t dataOutAvailable, size_t *dataOutMoved);
/// The output of an update of `inputLength` bytes, or with `final`, of the update and the end.
size_t CCCryptorGetOutputLength(CCCryptorRef cryptorRef, size_t inputLength, bool final);
/// Drops held input and sets a new IV (NULL: zeros), for CBC and CTR; kCCUnimplemented, with
/// the cryptor unchanged, for the other modes.
CCCryptorStatus CCCryptorReset(CCCryptorRef cryptorRef, const void *iv);
/// Encrypts or decrypts in one call. kCCBufferTooSmall, with the size needed in
/// `dataOutMoved`, when `dataOutAvailable` is less than the output may need.
CCCryptorStatus CCCrypt(CCOperation op, CCAlgorithm alg, CCOptions options, const void *key, size_t keyLength,
                        const void *iv, const void *dataIn, size_t dataInLength, void *dataOut, size_t dataOutAvailable,
                        size_t *dataOutMoved);

#endif
