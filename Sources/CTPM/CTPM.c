// tpm2-tss through dlopen rather than linking: the library products must build without any
// -dev package and run where tpm2-tss is not installed, where a Secure Enclave-style key is
// then sealed in software and a keychain's device key is kept in a file. The implementation is compiled against tpm2-tss's headers when
// they are there (libtss2-dev), so that every call goes through the header's own function
// type; without them this file is a stub that says there is no TPM support in the build.
#include "CTPM.h"

#include <string.h>

#if __has_include(<tss2/tss2_esys.h>) && __has_include(<tss2/tss2_mu.h>) && __has_include(<tss2/tss2_tctildr.h>)

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_tctildr.h>

// The functions used, each with the type its header declares.
#define CTPM_FUNCTIONS(X) \
    X(libtctildr, Tss2_TctiLdr_Initialize) \
    X(libtctildr, Tss2_TctiLdr_Finalize) \
    X(libesys, Esys_Initialize) \
    X(libesys, Esys_Finalize) \
    X(libesys, Esys_SetTimeout) \
    X(libesys, Esys_CreatePrimary) \
    X(libesys, Esys_Create) \
    X(libesys, Esys_Load) \
    X(libesys, Esys_Sign) \
    X(libesys, Esys_Unseal) \
    X(libesys, Esys_StartAuthSession) \
    X(libesys, Esys_TRSess_SetAttributes) \
    X(libesys, Esys_FlushContext) \
    X(libesys, Esys_Free) \
    X(libmu, Tss2_MU_TPM2B_PUBLIC_Marshal) \
    X(libmu, Tss2_MU_TPM2B_PUBLIC_Unmarshal) \
    X(libmu, Tss2_MU_TPM2B_PRIVATE_Marshal) \
    X(libmu, Tss2_MU_TPM2B_PRIVATE_Unmarshal)

static struct {
#define CTPM_FIELD(library, name) __typeof__(name) *name;
    CTPM_FUNCTIONS(CTPM_FIELD)
#undef CTPM_FIELD
    int loaded;
} tss;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
/// dlerror's text, copied: its own buffer is overwritten by the next failing dl call.
static char load_error[256];

static void load(void) {
    // RTLD_NODELETE: the functions stay valid for the process's life.
    int flags = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;
    void *libesys = dlopen("libtss2-esys.so.0", flags);
    void *libtctildr = libesys ? dlopen("libtss2-tctildr.so.0", flags) : NULL;
    void *libmu = libtctildr ? dlopen("libtss2-mu.so.0", flags) : NULL;
    if (libmu == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason != NULL ? reason : "tpm2-tss cannot be loaded");
        return;
    }
#define CTPM_LOOKUP(library, name) \
    tss.name = (__typeof__(name) *)dlsym(library, #name); \
    if (tss.name == NULL) { \
        snprintf(load_error, sizeof load_error, "tpm2-tss lacks %s", #name); \
        return; \
    }
    CTPM_FUNCTIONS(CTPM_LOOKUP)
#undef CTPM_LOOKUP
    tss.loaded = 1;
}

static int fail(struct ctpm_failure *failure, int kind, uint32_t code, const char *detail) {
    if (failure != NULL) {
        failure->code = code;
        failure->detail = detail;
    }
    return kind;
}

int ctpm_available(struct ctpm_failure *failure) {
    pthread_once(&loading, load);
    return tss.loaded ? CTPM_OK : fail(failure, CTPM_NOT_LOADED, 0, load_error);
}

/// A connection to one TPM, with the owner hierarchy's storage key loaded, and perhaps a
/// session that encrypts a command's secret parameter.
struct session {
    TSS2_TCTI_CONTEXT *tcti;
    ESYS_CONTEXT *esys;
    ESYS_TR primary;
    ESYS_TR encryption;
};

/// How long one TPM command may take, in milliseconds: a TPM that stops answering fails the
/// call rather than hanging it. Key generation on a slow TPM takes seconds.
static const int32_t command_timeout = 120000;

static void close_session(struct session *session) {
    if (session->encryption != ESYS_TR_NONE) tss.Esys_FlushContext(session->esys, session->encryption);
    if (session->primary != ESYS_TR_NONE) tss.Esys_FlushContext(session->esys, session->primary);
    if (session->esys != NULL) tss.Esys_Finalize(&session->esys);
    if (session->tcti != NULL) tss.Tss2_TctiLdr_Finalize(&session->tcti);
}

/// Opens the TPM and recreates its storage root key from the TCG's ECC P-256 template
/// (TCG TPM v2.0 Provisioning Guidance, 7.5.1): the same key each time, from the TPM's
/// storage seed, so nothing is kept in the TPM between calls, and a key made under another
/// TPM's (or a cleared TPM's) storage key cannot be loaded here.
static int open_session(const char *tcti, struct session *session, struct ctpm_failure *failure) {
    session->tcti = NULL;
    session->esys = NULL;
    session->primary = ESYS_TR_NONE;
    session->encryption = ESYS_TR_NONE;
    pthread_once(&loading, load);
    if (!tss.loaded) return fail(failure, CTPM_NOT_LOADED, 0, load_error);
    TSS2_RC rc = tss.Tss2_TctiLdr_Initialize(tcti, &session->tcti);
    if (rc != TSS2_RC_SUCCESS) return fail(failure, CTPM_TSS_FAILURE, rc, "Tss2_TctiLdr_Initialize");
    rc = tss.Esys_Initialize(&session->esys, session->tcti, NULL);
    if (rc != TSS2_RC_SUCCESS) {
        close_session(session);
        return fail(failure, CTPM_TSS_FAILURE, rc, "Esys_Initialize");
    }
    tss.Esys_SetTimeout(session->esys, command_timeout);
    TPM2B_SENSITIVE_CREATE sensitive = {0};
    TPM2B_PUBLIC template = {0};
    template.publicArea.type = TPM2_ALG_ECC;
    template.publicArea.nameAlg = TPM2_ALG_SHA256;
    template.publicArea.objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
        TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA |
        TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT;
    TPMS_ECC_PARMS *parameters = &template.publicArea.parameters.eccDetail;
    parameters->symmetric.algorithm = TPM2_ALG_AES;
    parameters->symmetric.keyBits.aes = 128;
    parameters->symmetric.mode.aes = TPM2_ALG_CFB;
    parameters->scheme.scheme = TPM2_ALG_NULL;
    parameters->curveID = TPM2_ECC_NIST_P256;
    parameters->kdf.scheme = TPM2_ALG_NULL;
    template.publicArea.unique.ecc.x.size = 32;
    template.publicArea.unique.ecc.y.size = 32;
    TPM2B_DATA outside = {0};
    TPML_PCR_SELECTION pcrs = {0};
    rc = tss.Esys_CreatePrimary(session->esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
                                &sensitive, &template, &outside, &pcrs, &session->primary, NULL, NULL, NULL, NULL);
    if (rc != TSS2_RC_SUCCESS) {
        session->primary = ESYS_TR_NONE;
        close_session(session);
        return fail(failure, CTPM_TSS_FAILURE, rc, "Esys_CreatePrimary (the storage root key)");
    }
    return CTPM_OK;
}

/// The uncompressed point of a P-256 public area; 0 when it is not one.
// An object's blob: its marshaled TPM2B_PUBLIC then TPM2B_PRIVATE, `*length` bytes of `blob`.
// A blob that does not fit is CTPM_BUFFER_TOO_SMALL, with `blob` cleared.
static int marshal_blob(const TPM2B_PUBLIC *public, const TPM2B_PRIVATE *private, uint8_t *blob, size_t capacity,
                        size_t *length, struct ctpm_failure *failure) {
    size_t offset = 0;
    TSS2_RC rc = tss.Tss2_MU_TPM2B_PUBLIC_Marshal(public, blob, capacity, &offset);
    if (rc == TSS2_RC_SUCCESS) rc = tss.Tss2_MU_TPM2B_PRIVATE_Marshal(private, blob, capacity, &offset);
    if (rc != TSS2_RC_SUCCESS) {
        memset(blob, 0, capacity);
        return fail(failure, CTPM_BUFFER_TOO_SMALL, rc, "Tss2_MU_TPM2B_*_Marshal");
    }
    *length = offset;
    return CTPM_OK;
}

static int point_of(const TPM2B_PUBLIC *public, uint8_t point[CTPM_POINT_LENGTH]) {
    const TPMS_ECC_POINT *ecc = &public->publicArea.unique.ecc;
    if (public->publicArea.type != TPM2_ALG_ECC ||
        public->publicArea.parameters.eccDetail.curveID != TPM2_ECC_NIST_P256 ||
        ecc->x.size > 32 || ecc->y.size > 32) {
        return 0;
    }
    // The TPM may drop leading zero bytes of a coordinate: they are put back.
    memset(point, 0, CTPM_POINT_LENGTH);
    point[0] = 0x04;
    memcpy(point + 1 + 32 - ecc->x.size, ecc->x.buffer, ecc->x.size);
    memcpy(point + 1 + 64 - ecc->y.size, ecc->y.buffer, ecc->y.size);
    return 1;
}

int ctpm_create_p256_key(const char *tcti, uint8_t *blob, size_t capacity, size_t *length,
                         uint8_t point[CTPM_POINT_LENGTH], struct ctpm_failure *failure) {
    struct session session;
    int status = open_session(tcti, &session, failure);
    if (status != CTPM_OK) return status;
    TPM2B_SENSITIVE_CREATE sensitive = {0};
    TPM2B_PUBLIC template = {0};
    template.publicArea.type = TPM2_ALG_ECC;
    template.publicArea.nameAlg = TPM2_ALG_SHA256;
    // Made in the TPM and never leaving it (fixedTPM, fixedParent, sensitiveDataOrigin); used
    // with its empty authorization value, after the library has proven what the key's access
    // control asks; signing only.
    template.publicArea.objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
        TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_SIGN_ENCRYPT;
    TPMS_ECC_PARMS *parameters = &template.publicArea.parameters.eccDetail;
    parameters->symmetric.algorithm = TPM2_ALG_NULL;
    parameters->scheme.scheme = TPM2_ALG_ECDSA;
    parameters->scheme.details.ecdsa.hashAlg = TPM2_ALG_SHA256;
    parameters->curveID = TPM2_ECC_NIST_P256;
    parameters->kdf.scheme = TPM2_ALG_NULL;
    TPM2B_DATA outside = {0};
    TPML_PCR_SELECTION pcrs = {0};
    TPM2B_PRIVATE *private = NULL;
    TPM2B_PUBLIC *public = NULL;
    TSS2_RC rc = tss.Esys_Create(session.esys, session.primary, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
                                 &sensitive, &template, &outside, &pcrs, &private, &public, NULL, NULL, NULL);
    if (rc != TSS2_RC_SUCCESS) {
        status = fail(failure, CTPM_TSS_FAILURE, rc, "Esys_Create (the key)");
    } else if (!point_of(public, point)) {
        status = fail(failure, CTPM_TSS_FAILURE, 0, "Esys_Create made a key that is not P-256");
    } else {
        status = marshal_blob(public, private, blob, capacity, length, failure);
    }
    // The private area is encrypted under the storage key, yet it is cleared like any key blob.
    if (private != NULL) memset(private, 0, sizeof *private);
    tss.Esys_Free(private);
    tss.Esys_Free(public);
    close_session(&session);
    return status;
}

int ctpm_sign_p256(const char *tcti, const uint8_t *blob, size_t length,
                   const uint8_t digest[CTPM_DIGEST_LENGTH], uint8_t signature[CTPM_SIGNATURE_LENGTH],
                   struct ctpm_failure *failure) {
    pthread_once(&loading, load);
    if (!tss.loaded) return fail(failure, CTPM_NOT_LOADED, 0, load_error);
    TPM2B_PUBLIC public = {0};
    TPM2B_PRIVATE private = {0};
    size_t offset = 0;
    uint8_t point[CTPM_POINT_LENGTH];
    if (tss.Tss2_MU_TPM2B_PUBLIC_Unmarshal(blob, length, &offset, &public) != TSS2_RC_SUCCESS ||
        tss.Tss2_MU_TPM2B_PRIVATE_Unmarshal(blob, length, &offset, &private) != TSS2_RC_SUCCESS ||
        offset != length || !point_of(&public, point) ||
        public.publicArea.parameters.eccDetail.scheme.scheme != TPM2_ALG_ECDSA) {
        memset(&private, 0, sizeof private);
        return fail(failure, CTPM_BAD_BLOB, 0, "the key blob is not a TPM P-256 signing key");
    }
    struct session session;
    int status = open_session(tcti, &session, failure);
    if (status != CTPM_OK) {
        memset(&private, 0, sizeof private);
        return status;
    }
    ESYS_TR key = ESYS_TR_NONE;
    TSS2_RC rc = tss.Esys_Load(session.esys, session.primary, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
                               &private, &public, &key);
    memset(&private, 0, sizeof private);
    if (rc != TSS2_RC_SUCCESS) {
        close_session(&session);
        // A response of the TPM itself (not of the TCTI or ESYS layers) refusing the blob: the
        // integrity check under the storage key failed, or the key does not fit this parent.
        if ((rc & TSS2_RC_LAYER_MASK) == TSS2_TPM_RC_LAYER) {
            return fail(failure, CTPM_FOREIGN_KEY, rc, "Esys_Load (the key)");
        }
        return fail(failure, CTPM_TSS_FAILURE, rc, "Esys_Load (the key)");
    }
    TPM2B_DIGEST message = {.size = CTPM_DIGEST_LENGTH};
    memcpy(message.buffer, digest, CTPM_DIGEST_LENGTH);
    TPMT_SIG_SCHEME scheme = {.scheme = TPM2_ALG_ECDSA};
    scheme.details.ecdsa.hashAlg = TPM2_ALG_SHA256;
    // No hash check ticket: the key is not restricted, so the TPM signs any digest.
    TPMT_TK_HASHCHECK validation = {.tag = TPM2_ST_HASHCHECK, .hierarchy = TPM2_RH_NULL};
    TPMT_SIGNATURE *made = NULL;
    rc = tss.Esys_Sign(session.esys, key, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &message, &scheme,
                       &validation, &made);
    if (rc != TSS2_RC_SUCCESS) {
        status = fail(failure, CTPM_TSS_FAILURE, rc, "Esys_Sign");
    } else if (made->sigAlg != TPM2_ALG_ECDSA || made->signature.ecdsa.signatureR.size > 32 ||
               made->signature.ecdsa.signatureS.size > 32) {
        status = fail(failure, CTPM_TSS_FAILURE, 0, "Esys_Sign gave no ECDSA P-256 signature");
    } else {
        const TPM2B_ECC_PARAMETER *r = &made->signature.ecdsa.signatureR, *s = &made->signature.ecdsa.signatureS;
        memset(signature, 0, CTPM_SIGNATURE_LENGTH);
        memcpy(signature + 32 - r->size, r->buffer, r->size);
        memcpy(signature + 64 - s->size, s->buffer, s->size);
    }
    tss.Esys_Free(made);
    tss.Esys_FlushContext(session.esys, key);
    close_session(&session);
    return status;
}

/// Starts a session salted with the storage key (the salt travels encrypted to it) that
/// encrypts the first parameter of the commands it is given to, `TPMA_SESSION_DECRYPT` for a
/// command's, `TPMA_SESSION_ENCRYPT` for its response's: a secret sealed or unsealed does not
/// cross the bus to the TPM in the clear.
static int start_encryption(struct session *session, TPMA_SESSION direction, struct ctpm_failure *failure) {
    TPMT_SYM_DEF symmetric = {.algorithm = TPM2_ALG_AES, .keyBits = {.aes = 128}, .mode = {.aes = TPM2_ALG_CFB}};
    TSS2_RC rc = tss.Esys_StartAuthSession(session->esys, session->primary, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
                                           ESYS_TR_NONE, NULL, TPM2_SE_HMAC, &symmetric, TPM2_ALG_SHA256,
                                           &session->encryption);
    if (rc != TSS2_RC_SUCCESS) {
        session->encryption = ESYS_TR_NONE;
        return fail(failure, CTPM_TSS_FAILURE, rc, "Esys_StartAuthSession (the encrypting session)");
    }
    // Kept open past the command (continueSession) so that close_session flushes it whether
    // the command succeeded or not.
    rc = tss.Esys_TRSess_SetAttributes(session->esys, session->encryption, direction | TPMA_SESSION_CONTINUESESSION, 0xff);
    if (rc != TSS2_RC_SUCCESS) return fail(failure, CTPM_TSS_FAILURE, rc, "Esys_TRSess_SetAttributes");
    return CTPM_OK;
}

/// Whether `public` is a sealed data object as ctpm_seal makes them.
static int is_sealed_data(const TPM2B_PUBLIC *public) {
    const TPMA_OBJECT attributes = public->publicArea.objectAttributes;
    return public->publicArea.type == TPM2_ALG_KEYEDHASH &&
        public->publicArea.parameters.keyedHashDetail.scheme.scheme == TPM2_ALG_NULL &&
        (attributes & TPMA_OBJECT_FIXEDTPM) && (attributes & TPMA_OBJECT_FIXEDPARENT) &&
        !(attributes & (TPMA_OBJECT_SIGN_ENCRYPT | TPMA_OBJECT_DECRYPT | TPMA_OBJECT_SENSITIVEDATAORIGIN));
}

int ctpm_seal(const char *tcti, const uint8_t *data, size_t length, uint8_t *blob, size_t capacity,
              size_t *blob_length, struct ctpm_failure *failure) {
    if (length == 0 || length > CTPM_SEALED_DATA_CAPACITY) {
        return fail(failure, CTPM_BUFFER_TOO_SMALL, 0, "the data to seal is empty or longer than 128 bytes");
    }
    struct session session;
    int status = open_session(tcti, &session, failure);
    if (status != CTPM_OK) return status;
    status = start_encryption(&session, TPMA_SESSION_DECRYPT, failure);
    if (status != CTPM_OK) {
        close_session(&session);
        return status;
    }
    TPM2B_SENSITIVE_CREATE sensitive = {0};
    sensitive.sensitive.data.size = (UINT16)length;
    memcpy(sensitive.sensitive.data.buffer, data, length);
    TPM2B_PUBLIC template = {0};
    template.publicArea.type = TPM2_ALG_KEYEDHASH;
    template.publicArea.nameAlg = TPM2_ALG_SHA256;
    // Bound to this TPM and this parent (fixedTPM, fixedParent: never duplicated elsewhere);
    // unsealed with its empty authorization value (userWithAuth), which a dictionary-attack
    // lockout would not protect, so failures do not count towards one (noDA); neither a
    // signing nor a decryption key: a data object, whose only use is TPM2_Unseal.
    template.publicArea.objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
        TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA;
    template.publicArea.parameters.keyedHashDetail.scheme.scheme = TPM2_ALG_NULL;
    TPM2B_DATA outside = {0};
    TPML_PCR_SELECTION pcrs = {0};
    TPM2B_PRIVATE *private = NULL;
    TPM2B_PUBLIC *public = NULL;
    TSS2_RC rc = tss.Esys_Create(session.esys, session.primary, ESYS_TR_PASSWORD, session.encryption, ESYS_TR_NONE,
                                 &sensitive, &template, &outside, &pcrs, &private, &public, NULL, NULL, NULL);
    explicit_bzero(&sensitive, sizeof sensitive);
    if (rc != TSS2_RC_SUCCESS) {
        status = fail(failure, CTPM_TSS_FAILURE, rc, "Esys_Create (the sealed data object)");
    } else {
        status = marshal_blob(public, private, blob, capacity, blob_length, failure);
    }
    if (private != NULL) explicit_bzero(private, sizeof *private);
    tss.Esys_Free(private);
    tss.Esys_Free(public);
    close_session(&session);
    return status;
}

int ctpm_unseal(const char *tcti, const uint8_t *blob, size_t blob_length, uint8_t *data, size_t capacity,
                size_t *length, struct ctpm_failure *failure) {
    pthread_once(&loading, load);
    if (!tss.loaded) return fail(failure, CTPM_NOT_LOADED, 0, load_error);
    TPM2B_PUBLIC public = {0};
    TPM2B_PRIVATE private = {0};
    size_t offset = 0;
    if (tss.Tss2_MU_TPM2B_PUBLIC_Unmarshal(blob, blob_length, &offset, &public) != TSS2_RC_SUCCESS ||
        tss.Tss2_MU_TPM2B_PRIVATE_Unmarshal(blob, blob_length, &offset, &private) != TSS2_RC_SUCCESS ||
        offset != blob_length || !is_sealed_data(&public)) {
        explicit_bzero(&private, sizeof private);
        return fail(failure, CTPM_BAD_BLOB, 0, "the blob is not a TPM sealed data object");
    }
    struct session session;
    int status = open_session(tcti, &session, failure);
    if (status != CTPM_OK) {
        explicit_bzero(&private, sizeof private);
        return status;
    }
    ESYS_TR object = ESYS_TR_NONE;
    TSS2_RC rc = tss.Esys_Load(session.esys, session.primary, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
                               &private, &public, &object);
    explicit_bzero(&private, sizeof private);
    if (rc != TSS2_RC_SUCCESS) {
        close_session(&session);
        // As in ctpm_sign_p256: the TPM itself refused the blob.
        if ((rc & TSS2_RC_LAYER_MASK) == TSS2_TPM_RC_LAYER) {
            return fail(failure, CTPM_FOREIGN_KEY, rc, "Esys_Load (the sealed data object)");
        }
        return fail(failure, CTPM_TSS_FAILURE, rc, "Esys_Load (the sealed data object)");
    }
    status = start_encryption(&session, TPMA_SESSION_ENCRYPT, failure);
    if (status != CTPM_OK) {
        tss.Esys_FlushContext(session.esys, object);
        close_session(&session);
        return status;
    }
    TPM2B_SENSITIVE_DATA *unsealed = NULL;
    rc = tss.Esys_Unseal(session.esys, object, ESYS_TR_PASSWORD, session.encryption, ESYS_TR_NONE, &unsealed);
    if (rc != TSS2_RC_SUCCESS) {
        status = fail(failure, CTPM_TSS_FAILURE, rc, "Esys_Unseal");
    } else if (unsealed->size > capacity) {
        status = fail(failure, CTPM_BUFFER_TOO_SMALL, 0, "the unsealed data is larger than the caller's buffer");
    } else {
        memcpy(data, unsealed->buffer, unsealed->size);
        *length = unsealed->size;
    }
    if (unsealed != NULL) explicit_bzero(unsealed, sizeof *unsealed);
    tss.Esys_Free(unsealed);
    tss.Esys_FlushContext(session.esys, object);
    close_session(&session);
    return status;
}

#else

int ctpm_available(struct ctpm_failure *failure) {
    if (failure != NULL) *failure = (struct ctpm_failure){0, "this build has no TPM support (built without tpm2-tss's headers)"};
    return CTPM_NOT_BUILT;
}

int ctpm_create_p256_key(const char *tcti, uint8_t *blob, size_t capacity, size_t *length,
                         uint8_t point[CTPM_POINT_LENGTH], struct ctpm_failure *failure) {
    (void)tcti, (void)blob, (void)capacity, (void)length, (void)point;
    if (failure != NULL) *failure = (struct ctpm_failure){0, "this build has no TPM support (built without tpm2-tss's headers)"};
    return CTPM_NOT_BUILT;
}

int ctpm_sign_p256(const char *tcti, const uint8_t *blob, size_t length,
                   const uint8_t digest[CTPM_DIGEST_LENGTH], uint8_t signature[CTPM_SIGNATURE_LENGTH],
                   struct ctpm_failure *failure) {
    (void)tcti, (void)blob, (void)length, (void)digest, (void)signature;
    if (failure != NULL) *failure = (struct ctpm_failure){0, "this build has no TPM support (built without tpm2-tss's headers)"};
    return CTPM_NOT_BUILT;
}

int ctpm_seal(const char *tcti, const uint8_t *data, size_t length, uint8_t *blob, size_t capacity,
              size_t *blob_length, struct ctpm_failure *failure) {
    (void)tcti, (void)data, (void)length, (void)blob, (void)capacity, (void)blob_length;
    if (failure != NULL) *failure = (struct ctpm_failure){0, "this build has no TPM support (built without tpm2-tss's headers)"};
    return CTPM_NOT_BUILT;
}

int ctpm_unseal(const char *tcti, const uint8_t *blob, size_t blob_length, uint8_t *data, size_t capacity,
                size_t *length, struct ctpm_failure *failure) {
    (void)tcti, (void)blob, (void)blob_length, (void)data, (void)capacity, (void)length;
    if (failure != NULL) *failure = (struct ctpm_failure){0, "this build has no TPM support (built without tpm2-tss's headers)"};
    return CTPM_NOT_BUILT;
}

#endif
