// The Linux kernel key retention service (keyrings(7)), for caching unlocked class keys.
// The system calls are variadic in C (syscall(2)), which Swift cannot call, and libkeyutils
// is not on a fresh machine: these few wrappers are the whole interface the library needs.
#ifndef CKERNELKEYRING_H
#define CKERNELKEYRING_H

#include <stddef.h>
#include <stdint.h>

// Each returns what the system call returns (-1 with errno set on failure), or -1 with
// errno ENOSYS where there is no such system call.

/// add_key(2) of type "user" into the calling user's keyring; replaces a key with the same
/// description. Returns the key's serial number.
int32_t ckk_add_user_key(const char *description, const void *payload, size_t length);
/// KEYCTL_SEARCH in the user's keyring for a "user" key. Returns its serial number.
int32_t ckk_search_user_key(const char *description);
/// KEYCTL_READ: copies up to `capacity` bytes; returns the payload's full length.
long ckk_read(int32_t key, void *buffer, size_t capacity);
/// KEYCTL_SET_TIMEOUT: the key expires `seconds` from now; 0 clears the timeout.
long ckk_set_timeout(int32_t key, unsigned seconds);
/// KEYCTL_SETPERM.
long ckk_set_permissions(int32_t key, uint32_t permissions);
/// KEYCTL_REVOKE: every later access to the key fails at once, in every process.
long ckk_revoke(int32_t key);
/// KEYCTL_UNLINK from the user's keyring.
long ckk_unlink_from_user_keyring(int32_t key);
/// KEYCTL_GET_KEYRING_ID of the user's keyring (made if it is not there yet): whether the
/// kernel keyring can be used at all. Returns the keyring's serial number.
int32_t ckk_user_keyring_id(void);

#endif
