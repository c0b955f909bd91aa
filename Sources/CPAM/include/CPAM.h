// Linux-PAM, loaded at run time (see CPAM.c for why): the parts of its stable ABI that
// UserPresence uses, declared here rather than taken from <security/pam_appl.h>, so that
// building needs no libpam0g-dev and nothing links libpam.
#ifndef SWIFT_KEYCHAIN_CPAM_H
#define SWIFT_KEYCHAIN_CPAM_H

#include <stddef.h>

// Return values of Linux-PAM's calls (_pam_types.h), those UserPresence tells apart.
#define CPAM_SUCCESS 0
#define CPAM_OPEN_ERR 1
#define CPAM_SYMBOL_ERR 2
#define CPAM_SERVICE_ERR 3
#define CPAM_SYSTEM_ERR 4
#define CPAM_BUF_ERR 5
#define CPAM_PERM_DENIED 6
#define CPAM_AUTH_ERR 7
#define CPAM_CRED_INSUFFICIENT 8
#define CPAM_AUTHINFO_UNAVAIL 9
#define CPAM_USER_UNKNOWN 10
#define CPAM_MAXTRIES 11
#define CPAM_NEW_AUTHTOK_REQD 12
#define CPAM_ACCT_EXPIRED 13
#define CPAM_CONV_ERR 19
#define CPAM_ABORT 26

// Flags.
#define CPAM_DISALLOW_NULL_AUTHTOK 0x0001

// Message styles of the conversation.
#define CPAM_PROMPT_ECHO_OFF 1
#define CPAM_PROMPT_ECHO_ON 2
#define CPAM_ERROR_MSG 3
#define CPAM_TEXT_INFO 4

// Linux-PAM's structures, laid out as in _pam_types.h.
struct cpam_message {
    int msg_style;
    const char *msg;
};

struct cpam_response {
    char *resp;
    int resp_retcode;
};

/// Linux-PAM passes `messages` as an array of `count` pointers. `responses` must be set to a
/// `malloc`ed array of `count` responses whose `resp` strings are `malloc`ed: PAM frees them.
typedef int (*cpam_conversation_function)(int count, const struct cpam_message **messages,
                                          struct cpam_response **responses, void *context);

struct cpam_conv {
    cpam_conversation_function conv;
    void *appdata_ptr;
};

/// An open PAM transaction (pam_handle_t, opaque).
typedef struct cpam_handle cpam_handle;

/// Loads libpam.so.0 and its five functions, once per process. 0 when they are there; else -1
/// with `*error` set to a static description (dlerror's text or the missing symbol).
int cpam_load(const char **error);

// Linux-PAM's calls, through the loaded library; cpam_load must have succeeded.
int cpam_start(const char *service, const char *user, const struct cpam_conv *conversation,
               cpam_handle **handle);
int cpam_authenticate(cpam_handle *handle, int flags);
int cpam_acct_mgmt(cpam_handle *handle, int flags);
int cpam_end(cpam_handle *handle, int status);
const char *cpam_strerror(cpam_handle *handle, int status);

#endif
