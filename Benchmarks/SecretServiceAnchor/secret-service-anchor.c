/*
 * Benchmark anchor: the same workload as `keychain-benchmark --sample`, run against the
 * Secret Service (GNOME Keyring) through libsecret's synchronous password API, the way a
 * native C client stores passwords on Linux today. Not part of the package: Scripts/
 * benchmark-anchors compiles it with gcc and runs it on a private D-Bus session bus.
 *
 *   secret-service-anchor --sample K SIZE...
 *   secret-service-anchor --fill SIZE SECONDS
 *
 * For each size: SIZE stores (adds), then min(SIZE, K) lookups and as many stores again
 * (updates) of random items, then min(SIZE, K) clears, each timed in 5 equal rounds.
 * GNOME Keyring writes its whole keyring file on every change, so a store costs time in
 * proportion to the items held: the sample K keeps updates and deletes at 10,000 items to
 * minutes rather than hours. Prints "SIZE add find update delete" in ops/s (the median round) on stdout for each
 * size, and progress on stderr.
 *
 * --fill stores items 0, 1, ... (account user-<i>@example.com, service bench.example.com)
 * until SIZE are stored or SECONDS have passed, leaves them there for other clients
 * (Scripts/benchmark-cli times `secret-tool lookup` on them) and prints how many it stored.
 * Secrets are never printed.
 */
#include <libsecret/secret.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 5

/* Two string attributes, as a generic password's account and service. */
static const SecretSchema schema = {
    .name = "org.swiftkeychain.Benchmark",
    .flags = SECRET_SCHEMA_NONE,
    .attributes = {
        { "account", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { NULL, 0 },
    },
};

static const char *service = "bench.example.com";
/* 32 bytes each, like the secrets of keychain-benchmark. */
static const char *secret = "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ";
static const char *changed = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz";

static unsigned long long random_state = 0x9E3779B97F4A7C15ull;

/* xorshift64: the anchor needs cheap, repeatable random indices, not good randomness. */
static int random_index(int size) {
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    return (int)(random_state % (unsigned long long)size);
}

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void fail(const char *what, GError *error) {
    fprintf(stderr, "secret-service-anchor: %s failed: %s\n", what, error ? error->message : "no such item");
    exit(1);
}

enum operation { ADD, FIND, UPDATE, DELETE };
static const char *names[] = { "add", "find", "update", "delete" };

static void call(enum operation operation, int index) {
    char account[64];
    snprintf(account, sizeof account, "user-%d@example.com", index);
    GError *error = NULL;
    switch (operation) {
    case ADD:
    case UPDATE: {
        char label[96];
        snprintf(label, sizeof label, "bench %s", account);
        /* Storing with the same attributes replaces the item: libsecret's update. */
        if (!secret_password_store_sync(&schema, SECRET_COLLECTION_DEFAULT, label,
                                        operation == ADD ? secret : changed, NULL, &error,
                                        "account", account, "service", service, NULL))
            fail(names[operation], error);
        break;
    }
    case FIND: {
        gchar *password = secret_password_lookup_sync(&schema, NULL, &error,
                                                      "account", account, "service", service, NULL);
        if (password == NULL || strlen(password) != 32) fail("find", error);
        secret_password_free(password);
        break;
    }
    case DELETE:
        if (!secret_password_clear_sync(&schema, NULL, &error,
                                        "account", account, "service", service, NULL))
            fail("delete", error);
        break;
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs `count` calls (rounded down to whole rounds) in ROUNDS rounds and returns the median
 * round's rate in calls/s. Adds and deletes go through the items in order, finds and updates
 * pick among the `added` items at random. */
static double measure(enum operation operation, int size, int count, int added) {
    int per_round = count / ROUNDS;
    double rates[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        double start = now_seconds();
        for (int i = round * per_round; i < (round + 1) * per_round; i++) {
            call(operation, operation == ADD || operation == DELETE ? i : random_index(added));
            if ((i + 1) % 500 == 0 && i + 1 < (round + 1) * per_round)
                fprintf(stderr, "  gnome-keyring %d items: %s %d/%d\n", size, names[operation], i + 1, count);
        }
        rates[round] = per_round / (now_seconds() - start);
        fprintf(stderr, "  gnome-keyring %d items: %s round %d/%d, %.0f ops/s\n",
                size, names[operation], round + 1, ROUNDS, rates[round]);
    }
    qsort(rates, ROUNDS, sizeof rates[0], compare);
    return rates[ROUNDS / 2];
}

/* Stores items until `size` are stored or `seconds` have passed; how many were stored. */
static int fill(int size, double seconds) {
    double start = now_seconds();
    int stored = 0;
    while (stored < size && now_seconds() - start < seconds) {
        call(ADD, stored++);
        if (stored % 500 == 0)
            fprintf(stderr, "  gnome-keyring fill: %d items, %.0f s\n", stored, now_seconds() - start);
    }
    return stored;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--fill") == 0) {
        printf("%d\n", fill(atoi(argv[2]), atof(argv[3])));
        return 0;
    }
    int sample = argc > 3 && strcmp(argv[1], "--sample") == 0 ? atoi(argv[2]) : 0;
    if (sample < ROUNDS) {
        fprintf(stderr, "usage: secret-service-anchor --sample K SIZE... (K and each SIZE at least %d)\n"
                        "       secret-service-anchor --fill SIZE SECONDS\n", ROUNDS);
        return 2;
    }
    for (int argument = 3; argument < argc; argument++) {
        int size = atoi(argv[argument]);
        if (size < ROUNDS) {
            fprintf(stderr, "secret-service-anchor: size must be at least %d\n", ROUNDS);
            return 2;
        }
        int added = size / ROUNDS * ROUNDS, sampled = size < sample ? size : sample;
        double rates[4];
        rates[ADD] = measure(ADD, size, size, added);
        for (int operation = FIND; operation <= DELETE; operation++)
            rates[operation] = measure((enum operation)operation, size, sampled, added);
        printf("%d %.1f %.1f %.1f %.1f\n", size, rates[ADD], rates[FIND], rates[UPDATE], rates[DELETE]);
        fflush(stdout);
    }
    return 0;
}
