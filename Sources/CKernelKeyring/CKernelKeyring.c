#include "CKernelKeyring.h"
#include <errno.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <linux/keyctl.h>

int32_t ckk_add_user_key(const char *description, const void *payload, size_t length) {
    return (int32_t)syscall(SYS_add_key, "user", description, payload, length, KEY_SPEC_USER_KEYRING);
}

int32_t ckk_search_user_key(const char *description) {
    return (int32_t)syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", description, 0);
}

long ckk_read(int32_t key, void *buffer, size_t capacity) {
    return syscall(SYS_keyctl, KEYCTL_READ, key, buffer, capacity);
}

long ckk_set_timeout(int32_t key, unsigned seconds) {
    return syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, key, seconds);
}

long ckk_set_permissions(int32_t key, uint32_t permissions) {
    return syscall(SYS_keyctl, KEYCTL_SETPERM, key, permissions);
}

long ckk_revoke(int32_t key) {
    return syscall(SYS_keyctl, KEYCTL_REVOKE, key);
}

long ckk_unlink_from_user_keyring(int32_t key) {
    return syscall(SYS_keyctl, KEYCTL_UNLINK, key, KEY_SPEC_USER_KEYRING);
}

int32_t ckk_user_keyring_id(void) {
    return (int32_t)syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 1);
}
#else
static long unsupported(void) { errno = ENOSYS; return -1; }
int32_t ckk_add_user_key(const char *d, const void *p, size_t l) { (void)d; (void)p; (void)l; return (int32_t)unsupported(); }
int32_t ckk_search_user_key(const char *d) { (void)d; return (int32_t)unsupported(); }
long ckk_read(int32_t k, void *b, size_t c) { (void)k; (void)b; (void)c; return unsupported(); }
long ckk_set_timeout(int32_t k, unsigned s) { (void)k; (void)s; return unsupported(); }
long ckk_set_permissions(int32_t k, uint32_t p) { (void)k; (void)p; return unsupported(); }
long ckk_revoke(int32_t k) { (void)k; return unsupported(); }
long ckk_unlink_from_user_keyring(int32_t k) { (void)k; return unsupported(); }
int32_t ckk_user_keyring_id(void) { return (int32_t)unsupported(); }
#endif
