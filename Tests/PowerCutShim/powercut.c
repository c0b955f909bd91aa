// An LD_PRELOAD shim for the power-loss and I/O-fault proof suites. Not a SwiftPM target:
// the suites build it with `cc -shared -fPIC -o powercut.so powercut.c -ldl`.
//
// It watches only the files of one folder (POWERCUT_DIR, the keychain folder); every other
// descriptor (standard output, the journal) passes through untouched.
//
// Power loss (POWERCUT_IMAGE=folder outside POWERCUT_DIR): it keeps the "durable image" of
// the folder, what a power cut would leave: a file's contents become durable when the file
// is fsynced or fdatasynced (its contents at that moment are copied to IMAGE/inode-N); a
// name's existence (creation, rename, unlink) becomes durable only when the folder itself is
// fsynced (the folder's listing at that moment is written to IMAGE/listing, `NAME INODE` a
// line). Names are read from the folder at its fsync, so renames and unlinks need no
// bookkeeping of their own. What is written but never synced is lost, as a power cut may
// lose it. The real fsync is not made: the image, not the disk, is what the test reads.
// Files present when the first process of a run starts (no IMAGE/listing yet) are taken
// as durable. Each fsync or fdatasync of a
// watched file or of the folder is a sync point; with POWERCUT_KILL_AT=N the process
// SIGKILLs itself at sync point N, before that sync takes effect.
//
// I/O faults: the process arms a fault through powercut_arm_fault() (found with dlsym):
// from the Nth write (write, pwrite, pwritev, ftruncate) or sync after arming, every such
// call on a watched file fails with ENOSPC or EIO, or, for a short write, the first writes
// half its bytes and later ones fail with ENOSPC (a disk filling up), until
// powercut_end_fault(). The shared-memory file (-shm) is never faulted: it is memory.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FDS 4096
enum { UNWATCHED = 0, WATCHED_FILE, WATCHED_SHM, WATCHED_FOLDER };

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static char folder[PATH_MAX];
static char image[PATH_MAX];
static int watching, imaging;
static unsigned char kinds[MAX_FDS];
static long sync_points, kill_at;
static long fault_countdown;      // writes or syncs left before the fault; 0: none armed
static int fault_on_syncs, fault_errno, fault_short, fault_active;
static long fault_hits;

static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static int (*real_close)(int);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static ssize_t (*real_pwritev)(int, const struct iovec *, int, off_t);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_sync_file_range)(int, off_t, off_t, unsigned int);

static void *next_symbol(const char *name) { return dlsym(RTLD_NEXT, name); }

static void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = real_write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) { fprintf(stderr, "powercut: cannot write the image\n"); abort(); }
        bytes += written;
        count -= (size_t)written;
    }
}

// Replaces IMAGE/name with `count` bytes from `source` (a descriptor read from offset 0),
// or with `text` when source < 0; through a temporary file and a rename, so that the image
// is whole whenever the process is killed.
static void store_in_image(const char *name, int source, const char *text) {
    char path[PATH_MAX * 2], temporary[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", image, name);
    snprintf(temporary, sizeof temporary, "%s/.%s.tmp", image, name);
    int out = real_open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) { fprintf(stderr, "powercut: cannot create %s\n", temporary); abort(); }
    if (source >= 0) {
        char buffer[65536];
        off_t offset = 0;
        for (;;) {
            ssize_t count = pread(source, buffer, sizeof buffer, offset);
            if (count < 0 && errno == EINTR) continue;
            if (count < 0) { fprintf(stderr, "powercut: cannot read a watched file\n"); abort(); }
            if (count == 0) break;
            write_all(out, buffer, (size_t)count);
            offset += count;
        }
    } else {
        write_all(out, text, strlen(text));
    }
    real_close(out);
    if (rename(temporary, path) != 0) { fprintf(stderr, "powercut: cannot rename %s\n", temporary); abort(); }
}

// The contents of the file open at `fd` become durable.
static void make_contents_durable(int fd) {
    struct stat info;
    if (fstat(fd, &info) != 0) return;
    char proc[64], name[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    int source = real_open(proc, O_RDONLY | O_CLOEXEC);
    if (source < 0) { fprintf(stderr, "powercut: cannot reopen a watched file\n"); abort(); }
    snprintf(name, sizeof name, "inode-%llu", (unsigned long long)info.st_ino);
    store_in_image(name, source, NULL);
    real_close(source);
}

// The folder's current names become durable.
static void make_listing_durable(void) {
    DIR *directory = opendir(folder);
    if (!directory) { fprintf(stderr, "powercut: cannot list the folder\n"); abort(); }
    size_t capacity = 4096, length = 0;
    char *listing = malloc(capacity);
    listing[0] = 0;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        if (entry->d_name[0] == '.' && (entry->d_name[1] == 0 || (entry->d_name[1] == '.' && entry->d_name[2] == 0))) continue;
        char path[PATH_MAX * 2], line[PATH_MAX * 2 + 32];
        struct stat info;
        snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        if (lstat(path, &info) != 0 || !S_ISREG(info.st_mode)) continue;
        int count = snprintf(line, sizeof line, "%s %llu\n", entry->d_name, (unsigned long long)info.st_ino);
        while (length + (size_t)count + 1 > capacity) { capacity *= 2; listing = realloc(listing, capacity); }
        memcpy(listing + length, line, (size_t)count + 1);
        length += (size_t)count;
    }
    closedir(directory);
    store_in_image("listing", -1, listing);
    free(listing);
}

static int ends_with(const char *text, const char *suffix) {
    size_t a = strlen(text), b = strlen(suffix);
    return a >= b && strcmp(text + a - b, suffix) == 0;
}

// What `path` (relative to the folder open at `at`) is to us.
static int classify(int at, const char *path) {
    if (!watching || !path) return UNWATCHED;
    char full[PATH_MAX * 2], resolved[PATH_MAX];
    if (path[0] == '/') {
        snprintf(full, sizeof full, "%s", path);
    } else {
        char base[PATH_MAX];
        if (at == AT_FDCWD) {
            if (!getcwd(base, sizeof base)) return UNWATCHED;
        } else {
            char proc[64];
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", at);
            ssize_t count = readlink(proc, base, sizeof base - 1);
            if (count < 0) return UNWATCHED;
            base[count] = 0;
        }
        snprintf(full, sizeof full, "%s/%s", base, path);
    }
    if (realpath(full, resolved) && strcmp(resolved, folder) == 0) return WATCHED_FOLDER;
    char *slash = strrchr(full, '/');
    if (!slash) return UNWATCHED;
    *slash = 0;
    if (!realpath(full[0] ? full : "/", resolved) || strcmp(resolved, folder) != 0) return UNWATCHED;
    return ends_with(slash + 1, "-shm") ? WATCHED_SHM : WATCHED_FILE;
}

static void track(int fd, int kind) {
    if (fd < 0 || fd >= MAX_FDS) return;
    pthread_mutex_lock(&state_lock);
    kinds[fd] = (unsigned char)kind;
    pthread_mutex_unlock(&state_lock);
}

static int kind_of(int fd) { return fd >= 0 && fd < MAX_FDS ? kinds[fd] : UNWATCHED; }

static void resolve(void) {
    if (real_open) return;
    real_open = next_symbol("open");
    real_open64 = next_symbol("open64");
    real_openat = next_symbol("openat");
    real_openat64 = next_symbol("openat64");
    real_close = next_symbol("close");
    real_write = next_symbol("write");
    real_pwrite = next_symbol("pwrite");
    real_pwrite64 = next_symbol("pwrite64");
    real_pwritev = next_symbol("pwritev");
    real_ftruncate = next_symbol("ftruncate");
    real_ftruncate64 = next_symbol("ftruncate64");
    real_fsync = next_symbol("fsync");
    real_fdatasync = next_symbol("fdatasync");
    real_sync_file_range = next_symbol("sync_file_range");
}

__attribute__((constructor)) static void start(void) {
    resolve();
    const char *watched = getenv("POWERCUT_DIR");
    if (!watched || !realpath(watched, folder)) return;
    watching = 1;
    const char *kill = getenv("POWERCUT_KILL_AT");
    kill_at = kill ? atol(kill) : 0;
    const char *durable = getenv("POWERCUT_IMAGE");
    if (!durable || !realpath(durable, image)) return;
    imaging = 1;
    // The image outlives each process: the first process of a run seeds it with what is
    // there at its start, which counts as durable; later ones (a shell's commands) add to it.
    char listing[PATH_MAX * 2];
    snprintf(listing, sizeof listing, "%s/listing", image);
    if (access(listing, F_OK) == 0) return;
    make_listing_durable();
    DIR *directory = opendir(folder);
    if (!directory) return;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        if (ends_with(entry->d_name, "-shm")) continue;
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        struct stat info;
        if (lstat(path, &info) != 0 || !S_ISREG(info.st_mode)) continue;
        int fd = real_open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) { make_contents_durable(fd); real_close(fd); }
    }
    closedir(directory);
}

// Counts a sync point; kills the process at the chosen one; updates the image.
static void sync_point(int fd) {
    int kind = kind_of(fd);
    if (kind == UNWATCHED) return;
    pthread_mutex_lock(&state_lock);
    sync_points += 1;
    if (kill_at > 0 && sync_points == kill_at) kill(getpid(), SIGKILL);
    if (imaging) {
        if (kind == WATCHED_FOLDER) make_listing_durable();
        else if (kind == WATCHED_FILE) make_contents_durable(fd);
    }
    pthread_mutex_unlock(&state_lock);
}

// Whether this write (or sync) on `fd` fails, and how: 0 to go ahead, -1 with errno set,
// or 1 to write half (a short write).
static int fault(int fd, int is_sync) {
    if (kind_of(fd) != WATCHED_FILE) return 0;
    pthread_mutex_lock(&state_lock);
    int outcome = 0;
    if (fault_countdown > 0 && is_sync == fault_on_syncs) {
        fault_countdown -= 1;
        if (fault_countdown == 0) {
            fault_active = 1;
            if (fault_short) outcome = 1;
        }
    }
    if (fault_active && is_sync == fault_on_syncs) {
        fault_hits += 1;
        if (outcome == 0) { errno = fault_errno; outcome = -1; }
    }
    pthread_mutex_unlock(&state_lock);
    return outcome;
}

// MARK: - The control functions, for the worker process (through dlsym).

// Arms a fault at the `after`th write (`on_syncs` 0) or sync (1) from now on: `kind` is
// "enospc", "eio" or "short". Returns 0, or -1 for a kind it does not know.
int powercut_arm_fault(const char *kind, int on_syncs, long after) {
    int error = strcmp(kind, "eio") == 0 ? EIO : ENOSPC;
    if (strcmp(kind, "eio") != 0 && strcmp(kind, "enospc") != 0 && strcmp(kind, "short") != 0) return -1;
    pthread_mutex_lock(&state_lock);
    fault_errno = error;
    fault_short = strcmp(kind, "short") == 0 && !on_syncs;
    fault_on_syncs = on_syncs;
    fault_countdown = after > 0 ? after : 1;
    fault_active = 0;
    fault_hits = 0;
    pthread_mutex_unlock(&state_lock);
    return 0;
}

// Ends the fault: the disk works again. Returns how many calls it failed (or cut short).
long powercut_end_fault(void) {
    pthread_mutex_lock(&state_lock);
    long hits = fault_hits;
    fault_countdown = 0;
    fault_active = 0;
    pthread_mutex_unlock(&state_lock);
    return hits;
}

// Whether the armed fault has begun.
int powercut_fault_active(void) { return fault_active; }

// The sync points so far.
long powercut_sync_points(void) { return sync_points; }

// MARK: - The interposed calls

static int opened(int fd, int at, const char *path) {
    if (fd >= 0 && watching) track(fd, classify(at, path));
    return fd;
}

#define MODE_ARGUMENT(flags) \
    mode_t mode = 0; \
    if (((flags) & O_CREAT) || ((flags) & O_TMPFILE) == O_TMPFILE) { va_list list; va_start(list, flags); mode = va_arg(list, mode_t); va_end(list); }

int open(const char *path, int flags, ...) {
    resolve();
    MODE_ARGUMENT(flags);
    return opened(real_open(path, flags, mode), AT_FDCWD, path);
}
int open64(const char *path, int flags, ...) {
    resolve();
    MODE_ARGUMENT(flags);
    return opened(real_open64(path, flags, mode), AT_FDCWD, path);
}
int openat(int at, const char *path, int flags, ...) {
    resolve();
    MODE_ARGUMENT(flags);
    return opened(real_openat(at, path, flags, mode), at, path);
}
int openat64(int at, const char *path, int flags, ...) {
    resolve();
    MODE_ARGUMENT(flags);
    return opened(real_openat64(at, path, flags, mode), at, path);
}

int close(int fd) {
    resolve();
    if (watching && kind_of(fd) != UNWATCHED) track(fd, UNWATCHED);
    return real_close(fd);
}

ssize_t write(int fd, const void *bytes, size_t count) {
    resolve();
    int outcome = fault(fd, 0);
    if (outcome < 0) return -1;
    return real_write(fd, bytes, outcome == 1 && count > 1 ? count / 2 : count);
}
ssize_t pwrite(int fd, const void *bytes, size_t count, off_t offset) {
    resolve();
    int outcome = fault(fd, 0);
    if (outcome < 0) return -1;
    return real_pwrite(fd, bytes, outcome == 1 && count > 1 ? count / 2 : count, offset);
}
ssize_t pwrite64(int fd, const void *bytes, size_t count, off_t offset) {
    resolve();
    int outcome = fault(fd, 0);
    if (outcome < 0) return -1;
    return real_pwrite64(fd, bytes, outcome == 1 && count > 1 ? count / 2 : count, offset);
}
ssize_t pwritev(int fd, const struct iovec *vectors, int count, off_t offset) {
    resolve();
    int outcome = fault(fd, 0);
    if (outcome < 0) return -1;
    if (outcome == 1 && count > 0 && vectors[0].iov_len > 1) return real_pwrite(fd, vectors[0].iov_base, vectors[0].iov_len / 2, offset);
    return real_pwritev(fd, vectors, count, offset);
}
int ftruncate(int fd, off_t length) {
    resolve();
    if (fault(fd, 0) != 0) { errno = fault_errno; return -1; }
    return real_ftruncate(fd, length);
}
int ftruncate64(int fd, off_t length) {
    resolve();
    if (fault(fd, 0) != 0) { errno = fault_errno; return -1; }
    return real_ftruncate64(fd, length);
}

int fsync(int fd) {
    resolve();
    if (fault(fd, 1) != 0) return -1;
    if (kind_of(fd) == UNWATCHED) return real_fsync(fd);
    sync_point(fd);
    return imaging ? 0 : real_fsync(fd);
}
int fdatasync(int fd) {
    resolve();
    if (fault(fd, 1) != 0) return -1;
    if (kind_of(fd) == UNWATCHED) return real_fdatasync(fd);
    sync_point(fd);
    return imaging ? 0 : real_fdatasync(fd);
}
// sync_file_range makes nothing durable (no metadata, no disk cache): not a sync point.
int sync_file_range(int fd, off_t offset, off_t count, unsigned int flags) {
    resolve();
    if (fault(fd, 1) != 0) return -1;
    return real_sync_file_range(fd, offset, count, flags);
}
