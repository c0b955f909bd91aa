// pam_keychain: unlocks the user's login keychain with the password typed at login, changes
// its password with the login password, and locks it when the session it unlocked ends.
//
// This module is loaded into login, sshd, su and sudo, so it stays small and in C: it keeps
// the password between the auth and session steps, and hands it to keychain-pam-helper, run
// as the user, over a socket. The keychain code (Swift, SQLite, scrypt) only ever runs in that
// helper's process, never in the host's.
//
// No PAM header or link is needed to build it: the few Linux-PAM calls it makes are looked up
// in the libpam that loaded it (see `pam`), whose ABI has not changed since Linux-PAM 0.99.
#define _GNU_SOURCE
#include "pam_keychain.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

// Linux-PAM's constants and structures (_pam_types.h), those this module uses.
#define PAM_SUCCESS 0
#define PAM_SERVICE_ERR 3
#define PAM_SYSTEM_ERR 4
#define PAM_BUF_ERR 5
#define PAM_IGNORE 25
#define PAM_SERVICE 1
#define PAM_CONV 5
#define PAM_AUTHTOK 6
#define PAM_OLDAUTHTOK 7
#define PAM_SILENT 0x8000U
#define PAM_PRELIM_CHECK 0x4000
#define PAM_UPDATE_AUTHTOK 0x2000
#define PAM_ERROR_MSG 3
#define PAM_TEXT_INFO 4

struct pam_message {
    int msg_style;
    const char *msg;
};

struct pam_response {
    char *resp;
    int resp_retcode;
};

struct pam_conv {
    int (*conv)(int, const struct pam_message **, struct pam_response **, void *);
    void *appdata_ptr;
};

// MARK: - Linux-PAM's calls

/// The libpam functions this module calls, looked up in the libpam already loaded in the
/// process (RTLD_NOLOAD), which is the one that loaded this module. Looking them up rather
/// than linking them works whether libpam is in the process's global scope (login, sshd) or
/// was itself loaded with RTLD_LOCAL (a program that dlopens libpam).
static struct {
    int (*get_item)(const pam_handle_t *, int, const void **);
    int (*get_user)(pam_handle_t *, const char **, const char *);
    int (*set_data)(pam_handle_t *, const char *, void *, void (*)(pam_handle_t *, void *, int));
    int (*get_data)(const pam_handle_t *, const char *, const void **);
    const char *(*getenv)(pam_handle_t *, const char *);
} pam;

static int load_pam(void) {
    if (pam.get_item != NULL) return 0;
    void *library = dlopen("libpam.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (library == NULL) library = dlopen("libpam.so.0", RTLD_NOW);
    if (library == NULL) return -1;
    // The handle is not closed: libpam outlives this module, which it loaded.
    *(void **)&pam.get_user = dlsym(library, "pam_get_user");
    *(void **)&pam.set_data = dlsym(library, "pam_set_data");
    *(void **)&pam.get_data = dlsym(library, "pam_get_data");
    *(void **)&pam.getenv = dlsym(library, "pam_getenv");
    void *get_item = dlsym(library, "pam_get_item");
    if (!pam.get_user || !pam.set_data || !pam.get_data || !pam.getenv || !get_item) return -1;
    *(void **)&pam.get_item = get_item;
    return 0;
}

// MARK: - Options

#ifndef PAM_KEYCHAIN_DEFAULT_HELPER
#define PAM_KEYCHAIN_DEFAULT_HELPER "/usr/local/libexec/swift-keychain/keychain-pam-helper"
#endif

/// The module's arguments: helper=PATH, timeout=SECONDS, helper_wait=SECONDS, debug.
struct options {
    const char *helper;
    /// The lock interval the helper gives the login keychain when it unlocks it (-1: leave the
    /// keychain's own setting).
    long timeout;
    /// How long the module waits for the helper before killing it.
    int helper_wait;
    int debug;
};

static void log_message(pam_handle_t *handle, int priority, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static struct options parse_options(pam_handle_t *handle, int argc, const char **argv) {
    struct options options = {PAM_KEYCHAIN_DEFAULT_HELPER, -1, 30, 0};
    for (int index = 0; index < argc; index++) {
        const char *argument = argv[index];
        char *end = NULL;
        if (strncmp(argument, "helper=", 7) == 0 && argument[7] == '/') {
            options.helper = argument + 7;
        } else if (strncmp(argument, "timeout=", 8) == 0) {
            errno = 0;
            long value = strtol(argument + 8, &end, 10);
            if (errno == 0 && end != argument + 8 && *end == '\0' && value >= 0 && value <= 4294967294L) {
                options.timeout = value;
            } else {
                log_message(handle, LOG_ERR, "ignoring %s: timeout takes a number of seconds", argument);
            }
        } else if (strncmp(argument, "helper_wait=", 12) == 0) {
            errno = 0;
            long value = strtol(argument + 12, &end, 10);
            if (errno == 0 && end != argument + 12 && *end == '\0' && value > 0 && value <= 600) {
                options.helper_wait = (int)value;
            } else {
                log_message(handle, LOG_ERR, "ignoring %s: helper_wait takes 1 to 600 seconds", argument);
            }
        } else if (strcmp(argument, "debug") == 0) {
            options.debug = 1;
        } else {
            log_message(handle, LOG_ERR, "ignoring unknown option %.64s", argument);
        }
    }
    return options;
}

// MARK: - Messages

/// To the system log (authpriv), as pam_syslog would, never with a password in it.
static void log_message(pam_handle_t *handle, int priority, const char *format, ...) {
    char text[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    const void *service = NULL;
    if (handle != NULL && pam.get_item != NULL) pam.get_item(handle, PAM_SERVICE, &service);
    syslog(LOG_AUTHPRIV | priority, "pam_keychain(%s): %s", service ? (const char *)service : "?", text);
}

/// Tells the user `text` through the application's conversation (an error or information line).
static void tell_user(pam_handle_t *handle, int flags, int style, const char *text) {
    if (flags & PAM_SILENT) return;
    const void *item = NULL;
    if (pam.get_item(handle, PAM_CONV, &item) != PAM_SUCCESS || item == NULL) return;
    const struct pam_conv *conversation = item;
    if (conversation->conv == NULL) return;
    struct pam_message message = {style, text};
    const struct pam_message *messages[1] = {&message};
    struct pam_response *responses = NULL;
    conversation->conv(1, messages, &responses, conversation->appdata_ptr);
    if (responses != NULL) {
        if (responses[0].resp != NULL) {
            explicit_bzero(responses[0].resp, strlen(responses[0].resp));
            free(responses[0].resp);
        }
        free(responses);
    }
}

// MARK: - Running the helper

// The helper's exit statuses (see Sources/PAMKeychainHelper/main.swift).
#define HELPER_OK 0
#define HELPER_PASSWORD_DIFFERS 10
#define HELPER_NO_KEYCHAIN 11
#define HELPER_ALREADY_UNLOCKED 12

/// The most a password may be: more is refused rather than cut.
#define MAX_PASSWORD 4096

/// What the helper answered: its exit status (-1: it did not run or end properly) and the
/// line it wrote (no secret: the helper never writes one).
struct outcome {
    int status;
    char line[256];
};

static void close_descriptor(int descriptor) {
    if (descriptor >= 0) close(descriptor);
}

static int send_all(int descriptor, const char *bytes, size_t count) {
    while (count > 0) {
        // MSG_NOSIGNAL: a helper that ended early gives EPIPE here, not SIGPIPE to the host.
        ssize_t sent = send(descriptor, bytes, count, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return -1;
        bytes += sent;
        count -= (size_t)sent;
    }
    return 0;
}

/// The user's environment for the helper: what a login would give it, from the password
/// entry, plus the session's XDG folders when the PAM environment has them (absolute).
static void build_environment(pam_handle_t *handle, const struct passwd *user, char storage[][1024], char **environment) {
    int count = 0;
    snprintf(storage[count], 1024, "HOME=%s", user->pw_dir);
    environment[count] = storage[count]; count++;
    snprintf(storage[count], 1024, "USER=%s", user->pw_name);
    environment[count] = storage[count]; count++;
    snprintf(storage[count], 1024, "LOGNAME=%s", user->pw_name);
    environment[count] = storage[count]; count++;
    snprintf(storage[count], 1024, "PATH=/usr/local/bin:/usr/bin:/bin");
    environment[count] = storage[count]; count++;
    static const char *const passed[] = {"XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_STATE_HOME"};
    for (size_t index = 0; index < sizeof passed / sizeof passed[0]; index++) {
        const char *value = pam.getenv(handle, passed[index]);
        if (value != NULL && value[0] == '/' && strlen(value) < 900) {
            snprintf(storage[count], 1024, "%s=%s", passed[index], value);
            environment[count] = storage[count]; count++;
        }
    }
    environment[count] = NULL;
}

/// Whether the helper is a program only root can replace: a regular file owned by root and
/// writable by no one else, in folders that only root can change (owned by root, writable by
/// no one else, or sticky like /tmp), after any links are resolved. The helper is given the
/// user's password. `resolved` (PATH_MAX bytes) receives the resolved path, the one to run:
/// the links were checked only as they are now.
static int helper_is_trusted(pam_handle_t *handle, const char *path, char *resolved) {
    if (realpath(path, resolved) == NULL) {
        log_message(handle, LOG_ERR, "helper %s: %s", path, strerror(errno));
        return 0;
    }
    struct stat status;
    if (stat(resolved, &status) != 0 || !S_ISREG(status.st_mode) || status.st_uid != 0
        || (status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        log_message(handle, LOG_ERR, "helper %s is not a file owned by root and writable by root only; not run", resolved);
        return 0;
    }
    // Each folder above it, from its own up to /.
    char folder[PATH_MAX];
    memcpy(folder, resolved, PATH_MAX);
    for (char *slash = strrchr(folder, '/'); slash != NULL; slash = strrchr(folder, '/')) {
        if (slash == folder) slash[1] = '\0'; else *slash = '\0';
        if (stat(folder, &status) != 0 || !S_ISDIR(status.st_mode) || status.st_uid != 0
            || ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (status.st_mode & S_ISVTX) == 0)) {
            log_message(handle, LOG_ERR, "helper %s is in %s, which others than root can change; not run", resolved, folder);
            return 0;
        }
        if (slash == folder) break;
    }
    return 1;
}

/// Runs `helper command` as `username` with `input` (`length` bytes) on its standard input,
/// and waits up to `helper_wait` seconds for it; longer, it is killed. Never runs it as root.
static struct outcome run_helper(pam_handle_t *handle, const struct options *options, const char *username,
                                 const char *command, const char *input, size_t length) {
    struct outcome outcome = {-1, ""};
    char helper[PATH_MAX];
    if (!helper_is_trusted(handle, options->helper, helper)) return outcome;

    // Everything that allocates (the user's entry, groups, environment) is done before the
    // fork: the host may have other threads, so the child only makes system calls.
    struct passwd entry, *user = NULL;
    char buffer[4096];
    if (getpwnam_r(username, &entry, buffer, sizeof buffer, &user) != 0 || user == NULL) {
        log_message(handle, LOG_ERR, "no password entry for %s", username);
        return outcome;
    }
    if (user->pw_uid == 0) {
        // root's keychain is not unlocked at login: the helper never runs as root.
        if (options->debug) log_message(handle, LOG_DEBUG, "not run for root");
        outcome.status = HELPER_NO_KEYCHAIN;
        return outcome;
    }
    if (user->pw_dir == NULL || user->pw_dir[0] != '/' || strlen(user->pw_dir) > 900) {
        log_message(handle, LOG_ERR, "%s has no absolute home folder", username);
        return outcome;
    }
    gid_t groups[256];
    int group_count = 256;
    if (getgrouplist(user->pw_name, user->pw_gid, groups, &group_count) < 0) {
        log_message(handle, LOG_ERR, "%s is in more than 256 groups", username);
        return outcome;
    }
    char storage[8][1024];
    char *environment[8];
    build_environment(handle, user, storage, environment);
    char *arguments[] = {helper, (char *)command, NULL};
    char timeout[32] = "";
    char *with_timeout[] = {helper, (char *)command, "--timeout", timeout, NULL};
    if (options->timeout >= 0 && strcmp(command, "unlock") == 0) snprintf(timeout, sizeof timeout, "%ld", options->timeout);
    char **argv = timeout[0] ? with_timeout : arguments;

    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        log_message(handle, LOG_ERR, "socketpair: %s", strerror(errno));
        return outcome;
    }
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    uid_t own = geteuid();
    if (own != 0 && own != user->pw_uid) {
        log_message(handle, LOG_ERR, "running as uid %u, which can run nothing as %s", (unsigned)own, username);
        close_descriptor(null); close(ends[0]); close(ends[1]);
        return outcome;
    }

    // The host may ignore SIGCHLD (children reaped for it): that would take the helper's
    // status from waitpid. Its own action comes back before returning.
    struct sigaction default_action, previous;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(SIGCHLD, &default_action, &previous);

    pid_t child = fork();
    if (child == 0) {
        // The child: the helper's descriptors, then the user's identity, each step checked.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (dup2(ends[1], 0) < 0 || dup2(ends[1], 1) < 0 || null < 0 || dup2(null, 2) < 0) _exit(120);
        closefrom(3);
        setsid();
        if (own == 0) {
            if (setgroups((size_t)group_count, groups) != 0) _exit(121);
            if (setgid(user->pw_gid) != 0) _exit(121);
            if (setuid(user->pw_uid) != 0) _exit(121);
        }
        if (getuid() != user->pw_uid || geteuid() != user->pw_uid || getgid() != user->pw_gid
            || getegid() != user->pw_gid) _exit(121);
        // root cannot come back.
        if (user->pw_uid != 0 && setuid(0) == 0) _exit(121);
        if (chdir(user->pw_dir) != 0 && chdir("/") != 0) _exit(122);
        execve(helper, argv, environment);
        _exit(127);
    }
    close(ends[1]);
    close_descriptor(null);
    if (child < 0) {
        log_message(handle, LOG_ERR, "fork: %s", strerror(errno));
        close(ends[0]);
        sigaction(SIGCHLD, &previous, NULL);
        return outcome;
    }

    // The input is small (two passwords at most): the socket's buffer holds it all, so this
    // never waits on the helper.
    if (send_all(ends[0], input, length) != 0) log_message(handle, LOG_ERR, "the helper did not take its input");
    shutdown(ends[0], SHUT_WR);

    // Bounded wait: a helper that hangs never holds the login.
    int status = 0;
    pid_t ended = 0;
    struct timespec step = {0, 10 * 1000 * 1000};
    for (long waited = 0; waited < (long)options->helper_wait * 100; waited++) {
        ended = waitpid(child, &status, WNOHANG);
        if (ended != 0 && !(ended < 0 && errno == EINTR)) break;
        nanosleep(&step, NULL);
    }
    if (ended == 0) {
        kill(child, SIGKILL);
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        log_message(handle, LOG_ERR, "helper %s %s did not end within %d seconds; killed", options->helper, command,
                    options->helper_wait);
    } else if (ended == child && WIFEXITED(status)) {
        outcome.status = WEXITSTATUS(status);
    } else if (ended == child && WIFSIGNALED(status)) {
        log_message(handle, LOG_ERR, "helper %s %s ended by signal %d", options->helper, command, WTERMSIG(status));
    } else if (ended < 0) {
        // The host reaped it (a SIGCHLD handler of its own): its status is lost.
        log_message(handle, LOG_ERR, "helper %s %s: waitpid: %s", options->helper, command, strerror(errno));
    }
    sigaction(SIGCHLD, &previous, NULL);

    // Its one line of explanation, read without waiting: it ended, so all of it is there.
    ssize_t count = recv(ends[0], outcome.line, sizeof outcome.line - 1, MSG_DONTWAIT);
    outcome.line[count > 0 ? count : 0] = '\0';
    for (char *character = outcome.line; *character; character++) {
        if (*character == '\n') { *character = '\0'; break; }
        if ((unsigned char)*character < 0x20 || *character == 0x7f) *character = '?';
    }
    close(ends[0]);
    if (outcome.status >= 120) {
        log_message(handle, LOG_ERR, "helper %s could not be started as %s (status %d)", options->helper, username,
                    outcome.status);
    }
    return outcome;
}

// MARK: - The kept password

/// The pam_set_data names: the password kept from auth to session, and the mark that this
/// module unlocked the keychain in this session.
static const char kept_password[] = "pam_keychain_password";
static const char unlocked_mark[] = "pam_keychain_unlocked";

static void forget_password(pam_handle_t *handle, void *data, int status) {
    (void)handle;
    (void)status;
    if (data == NULL) return;
    explicit_bzero(data, strlen(data));
    free(data);
}

static void forget_mark(pam_handle_t *handle, void *data, int status) {
    (void)handle;
    (void)status;
    (void)data;
}

/// `first` NUL `second` NUL, in a buffer the caller zeroes: the helper's input.
static size_t helper_input(char *buffer, size_t capacity, const char *first, const char *second) {
    size_t first_length = strlen(first);
    size_t second_length = second ? strlen(second) : 0;
    size_t total = first_length + 1 + (second ? second_length + 1 : 0);
    if (total > capacity) return 0;
    memcpy(buffer, first, first_length + 1);
    if (second) memcpy(buffer + first_length + 1, second, second_length + 1);
    return total;
}

// MARK: - auth: keep the password

/// Keeps the password the stack's earlier module (pam_unix) took, for the session step.
/// Never decides authentication: always PAM_IGNORE.
int pam_sm_authenticate(pam_handle_t *handle, int flags, int argc, const char **argv) {
    (void)flags;
    if (load_pam() != 0) return PAM_IGNORE;
    struct options options = parse_options(handle, argc, argv);
    const void *password = NULL;
    if (pam.get_item(handle, PAM_AUTHTOK, &password) != PAM_SUCCESS || password == NULL) {
        // A login without a password (a key, a fingerprint): nothing to keep, nothing unlocks.
        if (options.debug) log_message(handle, LOG_DEBUG, "no password to keep");
        return PAM_IGNORE;
    }
    if (strlen(password) > MAX_PASSWORD) {
        log_message(handle, LOG_ERR, "the password is longer than %d bytes; not kept", MAX_PASSWORD);
        return PAM_IGNORE;
    }
    char *copy = strdup(password);
    if (copy == NULL) return PAM_IGNORE;
    if (pam.set_data(handle, kept_password, copy, forget_password) != PAM_SUCCESS) {
        forget_password(handle, copy, 0);
    }
    return PAM_IGNORE;
}

int pam_sm_setcred(pam_handle_t *handle, int flags, int argc, const char **argv) {
    (void)handle; (void)flags; (void)argc; (void)argv;
    return PAM_IGNORE;
}

// MARK: - session: unlock, and lock at its end

int pam_sm_open_session(pam_handle_t *handle, int flags, int argc, const char **argv) {
    if (load_pam() != 0) return PAM_IGNORE;
    struct options options = parse_options(handle, argc, argv);
    const char *username = NULL;
    if (pam.get_user(handle, &username, NULL) != PAM_SUCCESS || username == NULL) return PAM_IGNORE;
    const void *password = NULL;
    if (pam.get_data(handle, kept_password, &password) != PAM_SUCCESS || password == NULL) {
        // No password this session: the keychain stays as it is (locked, unless unlocked by hand).
        if (options.debug) log_message(handle, LOG_DEBUG, "no password kept from auth: %s's keychain left as it is", username);
        return PAM_IGNORE;
    }
    char input[MAX_PASSWORD + 2];
    size_t length = helper_input(input, sizeof input, password, NULL);
    // The kept copy is zeroed and freed now: the helper has what it needs.
    pam.set_data(handle, kept_password, NULL, NULL);
    if (length == 0) return PAM_IGNORE;
    struct outcome outcome = run_helper(handle, &options, username, "unlock", input, length);
    explicit_bzero(input, sizeof input);
    switch (outcome.status) {
    case HELPER_OK:
        pam.set_data(handle, unlocked_mark, (void *)unlocked_mark, forget_mark);
        if (options.debug) log_message(handle, LOG_DEBUG, "%s's login keychain unlocked: %s", username, outcome.line);
        break;
    case HELPER_PASSWORD_DIFFERS:
        log_message(handle, LOG_NOTICE, "%s's login keychain has another password than the login's; left locked", username);
        tell_user(handle, flags, PAM_TEXT_INFO,
                  "Your login keychain's password is not your login password, so it was not unlocked. "
                  "To make it so: keychainctl set-keychain-password login");
        break;
    case HELPER_NO_KEYCHAIN:
        break;
    case HELPER_ALREADY_UNLOCKED:
        // Not this session's unlock: its end leaves the keychain unlocked.
        if (options.debug) log_message(handle, LOG_DEBUG, "%s's login keychain was unlocked already", username);
        break;
    default:
        log_message(handle, LOG_ERR, "%s's login keychain was not unlocked (helper status %d): %s", username,
                    outcome.status, outcome.line);
        break;
    }
    // Never stands in the way of a login.
    return PAM_SUCCESS;
}

int pam_sm_close_session(pam_handle_t *handle, int flags, int argc, const char **argv) {
    (void)flags;
    if (load_pam() != 0) return PAM_IGNORE;
    struct options options = parse_options(handle, argc, argv);
    const void *mark = NULL;
    if (pam.get_data(handle, unlocked_mark, &mark) != PAM_SUCCESS || mark == NULL) return PAM_IGNORE;
    const char *username = NULL;
    if (pam.get_user(handle, &username, NULL) != PAM_SUCCESS || username == NULL) return PAM_IGNORE;
    struct outcome outcome = run_helper(handle, &options, username, "lock", "", 0);
    if (outcome.status == HELPER_OK) {
        pam.set_data(handle, unlocked_mark, NULL, NULL);
    } else {
        log_message(handle, LOG_ERR, "%s's login keychain was not locked (helper status %d): %s", username,
                    outcome.status, outcome.line);
    }
    return PAM_SUCCESS;
}

// MARK: - password: change the keychain's with the login's

int pam_sm_chauthtok(pam_handle_t *handle, int flags, int argc, const char **argv) {
    if (load_pam() != 0) return PAM_IGNORE;
    // The first pass only checks that the change can be made; the keychain changes in the
    // second, after the modules above it (pam_unix) changed the login password.
    if (flags & PAM_PRELIM_CHECK) return PAM_IGNORE;
    if (!(flags & PAM_UPDATE_AUTHTOK)) return PAM_IGNORE;
    struct options options = parse_options(handle, argc, argv);
    const char *username = NULL;
    if (pam.get_user(handle, &username, NULL) != PAM_SUCCESS || username == NULL) return PAM_IGNORE;
    const void *old = NULL, *new = NULL;
    pam.get_item(handle, PAM_OLDAUTHTOK, &old);
    pam.get_item(handle, PAM_AUTHTOK, &new);
    if (new == NULL || ((const char *)new)[0] == '\0') {
        if (options.debug) log_message(handle, LOG_DEBUG, "no new password: %s's login keychain left as it is", username);
        return PAM_IGNORE;
    }
    char input[2 * MAX_PASSWORD + 4];
    // No old password (root changing another user's): only a keychain without one changes.
    size_t length = helper_input(input, sizeof input, old ? old : "", new);
    if (length == 0) {
        log_message(handle, LOG_ERR, "password too long for the login keychain; left as it is");
        return PAM_IGNORE;
    }
    struct outcome outcome = run_helper(handle, &options, username, "change", input, length);
    explicit_bzero(input, sizeof input);
    switch (outcome.status) {
    case HELPER_OK:
        if (options.debug) log_message(handle, LOG_DEBUG, "%s's login keychain password changed: %s", username, outcome.line);
        break;
    case HELPER_NO_KEYCHAIN:
        break;
    case HELPER_PASSWORD_DIFFERS:
        log_message(handle, LOG_NOTICE, "%s's login keychain has another password than the old login password; left as it is",
                    username);
        tell_user(handle, flags, PAM_TEXT_INFO,
                  "Your login keychain's password was not the old login password, so it was left as it is. "
                  "To change it: keychainctl set-keychain-password login");
        break;
    default:
        log_message(handle, LOG_ERR, "%s's login keychain password was not changed (helper status %d): %s", username,
                    outcome.status, outcome.line);
        tell_user(handle, flags, PAM_ERROR_MSG,
                  "Your login keychain's password could not be changed; it keeps the old one. "
                  "To change it: keychainctl set-keychain-password login");
        break;
    }
    // The login password changed whatever happened here: never undo that by failing.
    return PAM_SUCCESS;
}
