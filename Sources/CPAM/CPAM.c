// Linux-PAM through dlopen rather than linking: the Security and Keychain products must build
// without any -dev package (libpam0g-dev would be needed for the headers and the link) and run
// on systems without PAM, where proving presence is unavailable rather than the program
// failing to start. The ABI used here (five functions, three structures, the constants in
// CPAM.h) has not changed since Linux-PAM 0.99.
#include "CPAM.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef int (*start_function)(const char *, const char *, const struct cpam_conv *, cpam_handle **);
typedef int (*handle_flags_function)(cpam_handle *, int);
typedef const char *(*strerror_function)(cpam_handle *, int);

static struct {
    start_function start;
    handle_flags_function authenticate;
    handle_flags_function acct_mgmt;
    handle_flags_function end;
    strerror_function strerror;
    const char *error;
} pam;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
/// dlerror's text, copied: its own buffer is overwritten by the next failing dl call.
static char load_error[256];

static void load(void) {
    // RTLD_NODELETE: the functions stay valid for the process's life; PAM's modules are
    // loaded by libpam itself.
    void *library = dlopen("libpam.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason != NULL ? reason : "libpam.so.0 cannot be loaded");
        pam.error = load_error;
        return;
    }
    pam.start = (start_function)dlsym(library, "pam_start");
    pam.authenticate = (handle_flags_function)dlsym(library, "pam_authenticate");
    pam.acct_mgmt = (handle_flags_function)dlsym(library, "pam_acct_mgmt");
    pam.end = (handle_flags_function)dlsym(library, "pam_end");
    pam.strerror = (strerror_function)dlsym(library, "pam_strerror");
    if (!pam.start || !pam.authenticate || !pam.acct_mgmt || !pam.end || !pam.strerror) {
        pam.start = NULL;
        pam.error = "libpam.so.0 lacks pam_start, pam_authenticate, pam_acct_mgmt, pam_end or pam_strerror";
    }
}

int cpam_load(const char **error) {
    pthread_once(&loading, load);
    if (pam.start == NULL) {
        if (error != NULL) *error = pam.error;
        return -1;
    }
    return 0;
}

int cpam_start(const char *service, const char *user, const struct cpam_conv *conversation,
               cpam_handle **handle) {
    return pam.start(service, user, conversation, handle);
}

int cpam_authenticate(cpam_handle *handle, int flags) { return pam.authenticate(handle, flags); }

int cpam_acct_mgmt(cpam_handle *handle, int flags) { return pam.acct_mgmt(handle, flags); }

int cpam_end(cpam_handle *handle, int status) { return pam.end(handle, status); }

const char *cpam_strerror(cpam_handle *handle, int status) { return pam.strerror(handle, status); }
