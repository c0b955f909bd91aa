// The entry points Linux-PAM looks up in pam_keychain.so, one per management group it serves.
// pam_handle_t is Linux-PAM's opaque transaction, declared here rather than taken from
// <security/pam_modules.h> so that building needs no libpam0g-dev.
#ifndef SWIFT_KEYCHAIN_PAM_KEYCHAIN_H
#define SWIFT_KEYCHAIN_PAM_KEYCHAIN_H

typedef struct pam_handle pam_handle_t;

#define PAM_KEYCHAIN_EXPORT __attribute__((visibility("default")))

PAM_KEYCHAIN_EXPORT int pam_sm_authenticate(pam_handle_t *handle, int flags, int argc, const char **argv);
PAM_KEYCHAIN_EXPORT int pam_sm_setcred(pam_handle_t *handle, int flags, int argc, const char **argv);
PAM_KEYCHAIN_EXPORT int pam_sm_open_session(pam_handle_t *handle, int flags, int argc, const char **argv);
PAM_KEYCHAIN_EXPORT int pam_sm_close_session(pam_handle_t *handle, int flags, int argc, const char **argv);
PAM_KEYCHAIN_EXPORT int pam_sm_chauthtok(pam_handle_t *handle, int flags, int argc, const char **argv);

#endif
