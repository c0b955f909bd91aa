// The floor that Scripts/benchmark sets beside the keychain: per item, what one SecItemAdd,
// SecItemCopyMatching (service and account, data returned), SecItemUpdate (a new secret) and
// SecItemDelete do at the storage level, and nothing else, with the libraries the keychain
// uses: the system's SQLite (as GRDB links it) and the BoringSSL that swift-crypto vendors,
// linked from the objects SwiftPM compiled for the keychain.
//
// Per item the same row as the keychain's: an `item` table with the keychain's columns and
// indexes, keyed hashes (HMAC-SHA256) of the access group, account, service and identity in
// their columns, an 8-byte row nonce, and two AES-256-GCM blobs of the keychain's sizes (the
// attributes, padded to 256 bytes, and the 32-byte secret, padded to 64), each bound to its
// row by associated data laid out as the keychain's. The database runs as the keychain's
// does: WAL mode, synchronous=FULL (each commit syncs the log), secure_delete=ON; after an
// update or a delete the whole log is checkpointed into the database, truncated and synced,
// as the keychain scrubs superseded data.
//
//   add:    hash account and identity (access group and service hashed once, as the keychain
//           keeps their recent hashes), seal attributes and secret, one INSERT (one commit)
//   find:   hash account, SELECT through the (svce, acct, identity) index, open the secret
//   update: hash account; in one transaction SELECT the row, open its attributes, seal new
//           attributes and the new secret, UPDATE; then the scrub
//   delete: hash account, one DELETE (one commit), then the scrub
//
// Each call's input (the account's text) is made inside the timed loop, as the keychain's
// benchmark builds each query dictionary inside its timer.
//
// Driven over standard input, one command a line; each timed command prints the nanoseconds
// its loop took (CLOCK_MONOTONIC), so that the caller alternates it with the keychain round
// by round:
//   add FIRST COUNT     adds items FIRST ..< FIRST + COUNT
//   find COUNT RANGE    COUNT finds of random items in 0 ..< RANGE
//   update COUNT RANGE  COUNT updates of random items in 0 ..< RANGE
//   delete COUNT        deletes the next COUNT items of one random order of all items added
//   quit
//
//   keychain-store-anchor FOLDER      (the database is FOLDER/anchor.sqlite)
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "CCryptoBoringSSL_aead.h"
#include "CCryptoBoringSSL_digest.h"
#include "CCryptoBoringSSL_hmac.h"
#include "CCryptoBoringSSL_mem.h"
#include "CCryptoBoringSSL_rand.h"

enum {
    HASH = 32,             // HMAC-SHA256
    ROW_NONCE = 8,         // the keychain's row nonce
    GCM_NONCE = 12,
    GCM_TAG = 16,
    ATTRIBUTES_PADDED = 256,  // a generic password's record (128 to 255 bytes), padded to its size class
    SECRET = 32,
    SECRET_PADDED = 64,    // 32 bytes + the 0x80 marker take the 64-byte class
    SEALED_ATTRIBUTES = GCM_NONCE + ATTRIBUTES_PADDED + GCM_TAG,
    SEALED_SECRET = GCM_NONCE + SECRET_PADDED + GCM_TAG,
};

static const char *service = "bench.example.com";
static const char *access_group = "bench";
static const char *protection = "ak";
static const char aad_prefix[] = "swift-keychain item v3";

static sqlite3 *db;
static char wal_path[4200];
static EVP_AEAD_CTX aead;
static uint8_t hmac_key[32];
static uint8_t service_hash[HASH], group_hash[HASH];
static sqlite3_stmt *insert_statement, *find_statement, *row_statement, *update_statement, *delete_statement;
static sqlite3_stmt *begin_statement, *commit_statement;
static uint64_t random_state = 0x9E3779B97F4A7C15u;
static int64_t *delete_order;
static int64_t delete_count, delete_next, added_count;

static void fail(const char *what) {
    fprintf(stderr, "keychain-store-anchor: %s: %s\n", what, db ? sqlite3_errmsg(db) : strerror(errno));
    exit(1);
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// xorshift64*: the draw of a random item, inside the timed loop as Int.random is in ours.
static int64_t random_below(int64_t bound) {
    random_state ^= random_state >> 12;
    random_state ^= random_state << 25;
    random_state ^= random_state >> 27;
    return (int64_t)((random_state * 0x2545F4914F6CDD1Du) % (uint64_t)bound);
}

// The keyed hash of an attribute: HMAC of its code, a zero byte and its bytes, as the keychain's.
static void keyed_hash(const char *code, const void *bytes, size_t count, uint8_t out[HASH]) {
    uint8_t message[256];
    size_t code_length = strlen(code);
    memcpy(message, code, code_length);
    message[code_length] = 0;
    memcpy(message + code_length + 1, bytes, count);
    unsigned out_length = HASH;
    if (!HMAC(EVP_sha256(), hmac_key, sizeof hmac_key, message, code_length + 1 + count, out, &out_length)) fail("HMAC");
}

static void put64(uint8_t **cursor, int64_t value) {
    for (int shift = 56; shift >= 0; shift -= 8) *(*cursor)++ = (uint8_t)((uint64_t)value >> shift);
}

static void put_field(uint8_t **cursor, const uint8_t *field, size_t count) {
    put64(cursor, field ? (int64_t)count : -1);
    if (field) { memcpy(*cursor, field, count); *cursor += count; }
}

// The associated data of one part of a row: prefix, part, row nonce, class, sync, protection,
// then identity, access group, account, service and server with their lengths.
static size_t associated_data(uint8_t *out, uint8_t part, const uint8_t nonce[ROW_NONCE], const uint8_t identity[HASH],
                              const uint8_t account_hash[HASH]) {
    uint8_t *cursor = out;
    memcpy(cursor, aad_prefix, sizeof aad_prefix - 1);
    cursor += sizeof aad_prefix - 1;
    *cursor++ = part;
    memcpy(cursor, nonce, ROW_NONCE);
    cursor += ROW_NONCE;
    put64(&cursor, 1);
    put64(&cursor, 0);
    put64(&cursor, (int64_t)strlen(protection));
    memcpy(cursor, protection, strlen(protection));
    cursor += strlen(protection);
    put_field(&cursor, identity, HASH);
    put_field(&cursor, group_hash, HASH);
    put_field(&cursor, account_hash, HASH);
    put_field(&cursor, service_hash, HASH);
    put_field(&cursor, NULL, 0);
    return (size_t)(cursor - out);
}

// Pads `count` bytes to `padded` (0x80, then zeros) and seals them under `nonce`: nonce,
// ciphertext and tag, as AES.GCM.SealedBox.combined.
static void seal(uint8_t *sealed, const uint8_t nonce[GCM_NONCE], const uint8_t *plaintext, size_t count, size_t padded,
                 const uint8_t *aad, size_t aad_length) {
    uint8_t buffer[ATTRIBUTES_PADDED];
    memcpy(buffer, plaintext, count);
    buffer[count] = 0x80;
    memset(buffer + count + 1, 0, padded - count - 1);
    memcpy(sealed, nonce, GCM_NONCE);
    size_t out_length;
    if (!EVP_AEAD_CTX_seal(&aead, sealed + GCM_NONCE, &out_length, padded + GCM_TAG, nonce, GCM_NONCE, buffer, padded,
                           aad, aad_length)) fail("seal");
    OPENSSL_cleanse(buffer, sizeof buffer);
}

// Opens a sealed part into `plaintext`; its unpadded length.
static size_t open_sealed(uint8_t *plaintext, const uint8_t *sealed, size_t sealed_length, const uint8_t *aad,
                          size_t aad_length) {
    size_t out_length;
    if (sealed_length < GCM_NONCE + GCM_TAG
        || !EVP_AEAD_CTX_open(&aead, plaintext, &out_length, sealed_length - GCM_NONCE, sealed, GCM_NONCE,
                              sealed + GCM_NONCE, sealed_length - GCM_NONCE, aad, aad_length)) fail("open");
    while (out_length > 0 && plaintext[out_length - 1] == 0) out_length--;
    if (out_length == 0 || plaintext[out_length - 1] != 0x80) fail("unpad");
    return out_length - 1;
}

// The account of item `index`, as the keychain's benchmark names it, and its keyed hash.
static size_t account_of(int64_t index, char *account, uint8_t hash[HASH]) {
    int length = snprintf(account, 64, "user-%" PRId64 "@example.com", index);
    keyed_hash("acct", account, (size_t)length, hash);
    return (size_t)length;
}

// The record's bytes: the attributes a generic password keeps (class, service, account,
// access group, protection, dates, and the rest of its record), about 190 bytes, which the
// keychain's record of such an item also is (it pads them to 256).
static size_t record_bytes(uint8_t *out, const char *account, size_t account_length, int64_t date) {
    int length = snprintf((char *)out, ATTRIBUTES_PADDED,
                          "class=genp;svce=%s;acct=%.*s;agrp=%s;pdmn=%s;sync=0;cdat=%" PRId64 ";mdat=%" PRId64
                          ";tomb=0;musr=;sha1=0123456789abcdef0123;vers=3;persistent=0000000000000000;",
                          service, (int)account_length, account, access_group, protection, date, date);
    if (length >= ATTRIBUTES_PADDED - 1) length = ATTRIBUTES_PADDED - 2;
    return (size_t)length;
}

static void step_done(sqlite3_stmt *statement, const char *what) {
    if (sqlite3_step(statement) != SQLITE_DONE) fail(what);
    sqlite3_reset(statement);
}

// Copies the whole log into the database, truncates it and syncs its new length, so that no
// superseded page version is left in any file: the keychain's scrub after a superseding write.
static void scrub(void) {
    if (sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL) != SQLITE_OK) fail("checkpoint");
    int fd = open(wal_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0 || fsync(fd) != 0) fail("sync of the log");
    close(fd);
}

static void add(int64_t index) {
    char account[64];
    uint8_t account_hash[HASH], identity[HASH], random[ROW_NONCE + 2 * GCM_NONCE];
    size_t account_length = account_of(index, account, account_hash);
    // The identity: the class's name, then each primary-key field's code, length and bytes.
    uint8_t message[192];
    size_t n = (size_t)snprintf((char *)message, sizeof message, "identity genp");
    n += (size_t)snprintf((char *)message + n, sizeof message - n, "acct%08zx%s", account_length, account);
    n += (size_t)snprintf((char *)message + n, sizeof message - n, "svce%08zx%s", strlen(service), service);
    n += (size_t)snprintf((char *)message + n, sizeof message - n, "agrp%08zx%s", strlen(access_group), access_group);
    n += (size_t)snprintf((char *)message + n, sizeof message - n, "sync%08x0", 1);
    unsigned out_length = HASH;
    if (!HMAC(EVP_sha256(), hmac_key, sizeof hmac_key, message, n, identity, &out_length)) fail("HMAC");
    RAND_bytes(random, sizeof random);
    uint8_t aad[256], record[ATTRIBUTES_PADDED], secret[SECRET];
    uint8_t sealed_attributes[SEALED_ATTRIBUTES], sealed_secret[SEALED_SECRET];
    size_t record_length = record_bytes(record, account, account_length, (int64_t)time(NULL));
    memset(secret, 0x5A, sizeof secret);
    size_t aad_length = associated_data(aad, 'a', random, identity, account_hash);
    seal(sealed_attributes, random + ROW_NONCE, record, record_length, ATTRIBUTES_PADDED, aad, aad_length);
    aad[sizeof aad_prefix - 1] = 's';
    seal(sealed_secret, random + ROW_NONCE + GCM_NONCE, secret, SECRET, SECRET_PADDED, aad, aad_length);
    sqlite3_bind_blob(insert_statement, 1, random, ROW_NONCE, SQLITE_STATIC);
    sqlite3_bind_text(insert_statement, 2, protection, -1, SQLITE_STATIC);
    sqlite3_bind_blob(insert_statement, 3, identity, HASH, SQLITE_STATIC);
    sqlite3_bind_blob(insert_statement, 4, group_hash, HASH, SQLITE_STATIC);
    sqlite3_bind_blob(insert_statement, 5, account_hash, HASH, SQLITE_STATIC);
    sqlite3_bind_blob(insert_statement, 6, service_hash, HASH, SQLITE_STATIC);
    sqlite3_bind_blob(insert_statement, 7, sealed_attributes, SEALED_ATTRIBUTES, SQLITE_STATIC);
    sqlite3_bind_blob(insert_statement, 8, sealed_secret, SEALED_SECRET, SQLITE_STATIC);
    step_done(insert_statement, "insert");
    if (index + 1 > added_count) added_count = index + 1;
}

static void bind_lookup(sqlite3_stmt *statement, const uint8_t account_hash[HASH]) {
    sqlite3_bind_blob(statement, 1, service_hash, HASH, SQLITE_STATIC);
    sqlite3_bind_blob(statement, 2, account_hash, HASH, SQLITE_STATIC);
    sqlite3_bind_blob(statement, 3, group_hash, HASH, SQLITE_STATIC);
}

static void find(int64_t index) {
    char account[64];
    uint8_t account_hash[HASH], aad[256], plaintext[SECRET_PADDED + GCM_TAG];
    account_of(index, account, account_hash);
    bind_lookup(find_statement, account_hash);
    if (sqlite3_step(find_statement) != SQLITE_ROW) fail("find");
    const uint8_t *nonce = sqlite3_column_blob(find_statement, 0);
    const uint8_t *identity = sqlite3_column_blob(find_statement, 1);
    const uint8_t *sealed = sqlite3_column_blob(find_statement, 2);
    int sealed_length = sqlite3_column_bytes(find_statement, 2);
    if (sqlite3_column_bytes(find_statement, 0) != ROW_NONCE || sqlite3_column_bytes(find_statement, 1) != HASH
        || sealed_length > SEALED_SECRET) fail("find: a row of another shape");
    size_t aad_length = associated_data(aad, 's', nonce, identity, account_hash);
    // The caller gets its own copy of the secret, as SecItemCopyMatching returns a new Data.
    size_t length = open_sealed(plaintext, sealed, (size_t)sealed_length, aad, aad_length);
    uint8_t *result = malloc(length);
    memcpy(result, plaintext, length);
    if (length != SECRET || (result[0] != 0x5A && result[0] != 0xA5)) fail("find: a wrong secret");
    OPENSSL_cleanse(plaintext, sizeof plaintext);
    free(result);
    sqlite3_reset(find_statement);
}

static void update(int64_t index) {
    char account[64];
    uint8_t account_hash[HASH], aad[256], plaintext[ATTRIBUTES_PADDED + GCM_TAG], random[2 * GCM_NONCE];
    uint8_t nonce[ROW_NONCE], identity[HASH], secret[SECRET];
    uint8_t sealed_attributes[SEALED_ATTRIBUTES], sealed_secret[SEALED_SECRET];
    account_of(index, account, account_hash);
    step_done(begin_statement, "begin");
    bind_lookup(row_statement, account_hash);
    if (sqlite3_step(row_statement) != SQLITE_ROW) fail("update: no row");
    int64_t id = sqlite3_column_int64(row_statement, 0);
    memcpy(nonce, sqlite3_column_blob(row_statement, 1), ROW_NONCE);
    memcpy(identity, sqlite3_column_blob(row_statement, 2), HASH);
    size_t aad_length = associated_data(aad, 'a', nonce, identity, account_hash);
    size_t record_length = open_sealed(plaintext, sqlite3_column_blob(row_statement, 3),
                                       (size_t)sqlite3_column_bytes(row_statement, 3), aad, aad_length);
    sqlite3_reset(row_statement);
    // The modification date changes: the record is sealed again, with the new secret.
    RAND_bytes(random, sizeof random);
    memset(secret, 0xA5, sizeof secret);
    seal(sealed_attributes, random, plaintext, record_length, ATTRIBUTES_PADDED, aad, aad_length);
    OPENSSL_cleanse(plaintext, sizeof plaintext);
    aad[sizeof aad_prefix - 1] = 's';
    seal(sealed_secret, random + GCM_NONCE, secret, SECRET, SECRET_PADDED, aad, aad_length);
    sqlite3_bind_blob(update_statement, 1, sealed_attributes, SEALED_ATTRIBUTES, SQLITE_STATIC);
    sqlite3_bind_blob(update_statement, 2, sealed_secret, SEALED_SECRET, SQLITE_STATIC);
    sqlite3_bind_int64(update_statement, 3, id);
    step_done(update_statement, "update");
    step_done(commit_statement, "commit");
    scrub();
}

static void delete(int64_t index) {
    char account[64];
    uint8_t account_hash[HASH];
    account_of(index, account, account_hash);
    bind_lookup(delete_statement, account_hash);
    step_done(delete_statement, "delete");
    if (sqlite3_changes(db) != 1) fail("delete: no row");
    scrub();
}

static void prepare(const char *sql, sqlite3_stmt **statement) {
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, statement, NULL) != SQLITE_OK) fail(sql);
}

static void open_store(const char *folder) {
    char path[4096];
    snprintf(path, sizeof path, "%s/anchor.sqlite", folder);
    snprintf(wal_path, sizeof wal_path, "%s-wal", path);
    if (sqlite3_open(path, &db) != SQLITE_OK) fail("open");
    // The keychain's schema for items (its UNIQUE index per class leads with the hashed
    // service and account, so that equality search on them reads that index).
    const char *schema =
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA secure_delete = ON;"
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value ANY NOT NULL);"
        "INSERT OR IGNORE INTO meta VALUES ('hmac key', randomblob(32)), ('class key', randomblob(32));"
        "CREATE TABLE IF NOT EXISTS item (id INTEGER PRIMARY KEY CHECK (id > 0 AND id < 1152921504606846976),"
        " nonce BLOB NOT NULL, class INTEGER NOT NULL CHECK (class BETWEEN 1 AND 4), sync INTEGER NOT NULL,"
        " protection TEXT NOT NULL, identity BLOB NOT NULL, agrp BLOB NOT NULL, acct BLOB, svce BLOB, srvr BLOB,"
        " attributes BLOB NOT NULL, secret BLOB, atag BLOB DEFAULT X'', klbl BLOB DEFAULT X'', pkhh BLOB DEFAULT X'',"
        " paired INTEGER NOT NULL DEFAULT 0);"
        "CREATE UNIQUE INDEX IF NOT EXISTS generic_password_key ON item (svce, acct, identity) WHERE class = 1;"
        "CREATE UNIQUE INDEX IF NOT EXISTS internet_password_key ON item (srvr, acct, identity) WHERE class = 2;"
        "CREATE UNIQUE INDEX IF NOT EXISTS certificate_key ON item (identity) WHERE class = 3;"
        "CREATE UNIQUE INDEX IF NOT EXISTS key_key ON item (identity) WHERE class = 4;"
        "CREATE INDEX IF NOT EXISTS item_by_account ON item (acct) WHERE acct IS NOT NULL;"
        "CREATE INDEX IF NOT EXISTS key_by_tag ON item (atag) WHERE class = 4;"
        "CREATE INDEX IF NOT EXISTS key_by_label ON item (klbl) WHERE class = 4;"
        "CREATE INDEX IF NOT EXISTS certificate_by_public_key_hash ON item (pkhh) WHERE class = 3;";
    if (sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK) fail("schema");
    sqlite3_stmt *keys;
    uint8_t class_key[32];
    prepare("SELECT (SELECT value FROM meta WHERE key = 'hmac key'), (SELECT value FROM meta WHERE key = 'class key')", &keys);
    if (sqlite3_step(keys) != SQLITE_ROW) fail("keys");
    memcpy(hmac_key, sqlite3_column_blob(keys, 0), 32);
    memcpy(class_key, sqlite3_column_blob(keys, 1), 32);
    sqlite3_finalize(keys);
    if (!EVP_AEAD_CTX_init(&aead, EVP_aead_aes_256_gcm(), class_key, sizeof class_key, GCM_TAG, NULL)) fail("AES-GCM key");
    OPENSSL_cleanse(class_key, sizeof class_key);
    keyed_hash("svce", service, strlen(service), service_hash);
    keyed_hash("agrp", access_group, strlen(access_group), group_hash);
    prepare("INSERT INTO item (nonce, class, sync, protection, identity, agrp, acct, svce, srvr, atag, klbl, pkhh,"
            " attributes, secret, paired) VALUES (?1, 1, 0, ?2, ?3, ?4, ?5, ?6, NULL, NULL, NULL, NULL, ?7, ?8, 1)",
            &insert_statement);
    prepare("SELECT nonce, identity, secret FROM item WHERE class = 1 AND svce = ?1 AND acct = ?2 AND agrp = ?3",
            &find_statement);
    prepare("SELECT id, nonce, identity, attributes FROM item WHERE class = 1 AND svce = ?1 AND acct = ?2 AND agrp = ?3",
            &row_statement);
    prepare("UPDATE item SET attributes = ?1, secret = ?2 WHERE id = ?3", &update_statement);
    prepare("DELETE FROM item WHERE class = 1 AND svce = ?1 AND acct = ?2 AND agrp = ?3", &delete_statement);
    prepare("BEGIN IMMEDIATE", &begin_statement);
    prepare("COMMIT", &commit_statement);
    sqlite3_stmt *count;
    prepare("SELECT count(*) FROM item", &count);
    if (sqlite3_step(count) != SQLITE_ROW) fail("count");
    added_count = sqlite3_column_int64(count, 0);
    sqlite3_finalize(count);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: keychain-store-anchor FOLDER   (commands on standard input; see the source)\n");
        return 2;
    }
    random_state ^= (uint64_t)now_ns();
    open_store(argv[1]);
    char line[256], command[16];
    int64_t first, count, range;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        uint64_t start;
        if (sscanf(line, "add %" SCNd64 " %" SCNd64, &first, &count) == 2) {
            start = now_ns();
            for (int64_t i = first; i < first + count; i++) add(i);
        } else if (sscanf(line, "find %" SCNd64 " %" SCNd64, &count, &range) == 2 && range > 0) {
            start = now_ns();
            for (int64_t i = 0; i < count; i++) find(random_below(range));
        } else if (sscanf(line, "update %" SCNd64 " %" SCNd64, &count, &range) == 2 && range > 0) {
            start = now_ns();
            for (int64_t i = 0; i < count; i++) update(random_below(range));
        } else if (sscanf(line, "delete %" SCNd64, &count) == 1) {
            if (!delete_order) {
                // One random order of every item added (Fisher-Yates), drawn before any timer.
                delete_count = added_count;
                delete_order = malloc(sizeof *delete_order * (size_t)(delete_count > 0 ? delete_count : 1));
                for (int64_t i = 0; i < delete_count; i++) delete_order[i] = i;
                for (int64_t i = delete_count - 1; i > 0; i--) {
                    int64_t j = random_below(i + 1), swap = delete_order[i];
                    delete_order[i] = delete_order[j];
                    delete_order[j] = swap;
                }
            }
            if (delete_next + count > delete_count) { fprintf(stderr, "keychain-store-anchor: too many deletes\n"); return 1; }
            start = now_ns();
            for (int64_t i = 0; i < count; i++) delete(delete_order[delete_next++]);
        } else if (sscanf(line, "%15s", command) == 1 && strcmp(command, "quit") == 0) {
            break;
        } else {
            fprintf(stderr, "keychain-store-anchor: unknown command: %s", line);
            return 2;
        }
        printf("%" PRIu64 "\n", now_ns() - start);
    }
    EVP_AEAD_CTX_cleanup(&aead);
    OPENSSL_cleanse(hmac_key, sizeof hmac_key);
    sqlite3_close(db);
    return 0;
}
