// A test process (and the programs it starts) runs with XDG_DATA_HOME and
// XDG_STATE_HOME in a scratch folder of its own, so that nothing it does, or a program it
// starts, reads or writes the user's keychains (~/.local/share/keychains) or machine secret
// (~/.local/state/swift-keychain): the library reads both from the environment once, on first
// use, with no seam for tests. The library's other variables are removed, so that the user's
// shell cannot change what the tests see (KEYCHAIN_NO_KERNEL_KEYRING made the processes of a
// test stop sharing unlocks); the tests set them for the programs they start where they need
// them. Done in a constructor, before main and before any thread, as setenv cannot be called
// safely once other threads may read the environment.
#define _GNU_SOURCE
#include "CScratchHomes.h"
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// Set in the environment of the process that made the folder, so that the programs it
/// starts (which link TestSupport too, like the tests' helper) keep its folders: items bound
/// to the machine secret must open in every process of one test.
static const char *const inheritedMarker = "SWIFT_KEYCHAIN_TESTS_SCRATCH_HOMES";

static char folder[PATH_MAX];
static pid_t creator;

const char *swift_keychain_tests_scratch_homes(void) {
    const char *inherited = getenv(inheritedMarker);
    return inherited ? inherited : (folder[0] ? folder : NULL);
}

static int removeEntry(const char *path, const struct stat *status, int type, struct FTW *walk) {
    (void)status; (void)type; (void)walk;
    remove(path);
    return 0;
}

/// Only the process that made the folder removes it, at its exit.
static void removeScratchHomes(void) {
    if (getpid() == creator) nftw(folder, removeEntry, 16, FTW_DEPTH | FTW_PHYS);
}

/// Whether this process is the test bundle (`...PackageTests.xctest`). The long runs and
/// fuzzers that link TestSupport work in folders of their own and are left alone: in a
/// program linked with Swift's static libraries, changing the environment this early
/// leaves `CommandLine.arguments` empty (the runtime finds the arguments from the
/// environment's original place).
static int isTestBundle(int argc, char **argv) {
    if (argc < 1 || !argv[0]) return 0;
    size_t length = strlen(argv[0]);
    const char *suffix = ".xctest";
    return length >= strlen(suffix) && strcmp(argv[0] + length - strlen(suffix), suffix) == 0;
}

__attribute__((constructor)) static void useScratchHomes(int argc, char **argv, char **envp) {
    (void)envp;
    if (getenv(inheritedMarker) || !isTestBundle(argc, argv)) return;
    const char *temporary = getenv("TMPDIR");
    if (!temporary || temporary[0] != '/') temporary = "/tmp";
    if (snprintf(folder, sizeof folder, "%s/swift-keychain-tests-homes-XXXXXX", temporary) >= (int)sizeof folder
        || !mkdtemp(folder)) {
        folder[0] = 0;
        return;
    }
    char data[PATH_MAX], state[PATH_MAX];
    snprintf(data, sizeof data, "%s/data", folder);
    snprintf(state, sizeof state, "%s/state", folder);
    setenv("XDG_DATA_HOME", data, 1);
    setenv("XDG_STATE_HOME", state, 1);
    setenv(inheritedMarker, folder, 1);
    unsetenv("KEYCHAIN_ACCESS_GROUPS");
    unsetenv("KEYCHAIN_NO_KERNEL_KEYRING");
    unsetenv("KEYCHAIN_MACHINE_ID_FILE");
    // No TPM unless a test names one (a swtpm of its own): Secure Enclave-style keys never go
    // to the machine's /dev/tpmrm0, and behave alike on machines with and without one.
    setenv("KEYCHAIN_TPM_TCTI", "none", 1);
    creator = getpid();
    atexit(removeScratchHomes);
}
