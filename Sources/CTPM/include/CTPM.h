// A TPM 2.0 through tpm2-tss loaded at run time (see CTPM.c for why): P-256 signing keys held
// in it, and small secrets sealed to it. Nothing of tpm2-tss shows here: a key or a sealed
// secret leaves this module only as an opaque blob (its marshaled TPM2B_PUBLIC then
// TPM2B_PRIVATE, whose sensitive part only its TPM can open) and a key's public point.
#ifndef SWIFT_KEYCHAIN_CTPM_H
#define SWIFT_KEYCHAIN_CTPM_H

#include <stddef.h>
#include <stdint.h>

// What a call gives back.
#define CTPM_OK 0
/// Built without tpm2-tss's headers: there is no TPM support in this build.
#define CTPM_NOT_BUILT 1
/// libtss2-esys, libtss2-tctildr or libtss2-mu cannot be loaded (`detail`: dlerror's text).
#define CTPM_NOT_LOADED 2
/// A tpm2-tss call failed: `detail` names it, `code` is its TSS2_RC.
#define CTPM_TSS_FAILURE 3
/// The blob is not what this module made (it does not unmarshal, or is not a P-256 ECDSA key,
/// or not a sealed data object).
#define CTPM_BAD_BLOB 4
/// The TPM refused to load the key (`code`: the TPM's response code): its parent, the storage
/// key this TPM derives from its own seed, is not the one the key was made under: another
/// TPM, or this one cleared.
#define CTPM_FOREIGN_KEY 5
/// The caller's buffer is too small for the blob (or the secret too large to seal).
#define CTPM_BUFFER_TOO_SMALL 6

/// Why a call failed. `detail` points to static text, never to key material.
struct ctpm_failure {
    uint32_t code;
    const char *detail;
};

/// The most bytes a blob takes: a marshaled TPM2B_PUBLIC and TPM2B_PRIVATE.
#define CTPM_BLOB_CAPACITY 2048
/// An uncompressed P-256 point, 04 ‖ X ‖ Y.
#define CTPM_POINT_LENGTH 65
/// An ECDSA P-256 signature, r ‖ s, each 32 bytes big-endian.
#define CTPM_SIGNATURE_LENGTH 64
#define CTPM_DIGEST_LENGTH 32
/// The most bytes a sealed data object holds (MAX_SYM_DATA in the TPM 2.0 specification).
#define CTPM_SEALED_DATA_CAPACITY 128

/// Whether TPM calls can be made here: CTPM_OK when tpm2-tss is built in and loads, else
/// CTPM_NOT_BUILT or CTPM_NOT_LOADED with `failure` saying why.
int ctpm_available(struct ctpm_failure *failure);

/// Makes a new P-256 signing key in the TPM that `tcti` names (a tctildr configuration such as
/// `device:/dev/tpmrm0` or `swtpm:host=127.0.0.1,port=2321`), under the owner hierarchy's
/// standard ECC storage key. Writes the key's blob (`*length` bytes of `blob`, at most
/// `capacity`) and its public point.
int ctpm_create_p256_key(const char *tcti, uint8_t *blob, size_t capacity, size_t *length,
                         uint8_t point[CTPM_POINT_LENGTH], struct ctpm_failure *failure);

/// Signs a 32-byte digest (ECDSA, the digest as SHA-256's) with the key `blob` holds, in the TPM
/// that `tcti` names. Writes r ‖ s.
int ctpm_sign_p256(const char *tcti, const uint8_t *blob, size_t length,
                   const uint8_t digest[CTPM_DIGEST_LENGTH], uint8_t signature[CTPM_SIGNATURE_LENGTH],
                   struct ctpm_failure *failure);

/// Seals `length` bytes of `data` (at most CTPM_SEALED_DATA_CAPACITY) to the TPM that `tcti`
/// names: a data object under the owner hierarchy's standard ECC storage key, as systemd-creds
/// seals credentials, which only this TPM, with this storage seed, can unseal. Writes the
/// object's blob (`*blob_length` bytes of `blob`, at most `capacity`). The data travels to the
/// TPM encrypted, in a session salted with the storage key.
int ctpm_seal(const char *tcti, const uint8_t *data, size_t length, uint8_t *blob, size_t capacity,
              size_t *blob_length, struct ctpm_failure *failure);

/// Unseals a blob ctpm_seal wrote, in the TPM that `tcti` names: writes the data (`*length`
/// bytes of `data`, at most `capacity`). CTPM_FOREIGN_KEY when this TPM cannot load the
/// object (another TPM, or this one cleared); CTPM_BAD_BLOB when the blob is not a sealed
/// data object. The data travels back encrypted, in a session salted with the storage key.
int ctpm_unseal(const char *tcti, const uint8_t *blob, size_t blob_length, uint8_t *data, size_t capacity,
                size_t *length, struct ctpm_failure *failure);

#endif
