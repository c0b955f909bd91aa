/*
 * A C client of the Secret Service through libsecret's password API with a schema, as
 * programs built on libsecret use it. The tests compile it with cc and
 * `pkg-config libsecret-1` and run it against the provider on a private bus.
 *
 *   libsecret-client store LABEL SECRET NAME VALUE...   secret_password_storev_sync (SECRET -:
 *                                                       standard input, up to 2 MiB)
 *   libsecret-client lookup NAME VALUE...               secret_password_lookupv_sync
 *   libsecret-client search NAME VALUE...               secret_password_searchv_sync, all matches
 *   libsecret-client clear NAME VALUE...                secret_password_clearv_sync
 *
 * Attributes are those of the schema org.example.KeychainTest: server and user (strings),
 * port (an integer). lookup prints the secret; search prints one line per item: its label,
 * its secret and its attributes as NAME=VALUE, sorted, separated by tabs.
 *
 * Exit status: 0 done; 1 nothing matched (lookup, search, clear); 2 libsecret reported an
 * error (its message on standard error); 64 bad arguments.
 */
#include <libsecret/secret.h>
#include <stdio.h>
#include <string.h>

static const SecretSchema schema = {
    "org.example.KeychainTest", SECRET_SCHEMA_NONE,
    {
        { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "port", SECRET_SCHEMA_ATTRIBUTE_INTEGER },
        { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { NULL, 0 },
    }
};

static int usage(void) {
    fprintf(stderr, "usage: libsecret-client store LABEL SECRET NAME VALUE... | lookup|search|clear NAME VALUE...\n");
    return 64;
}

/* Standard input, up to `limit` bytes and a NUL; NULL when it is longer or unreadable. */
static char *read_input(size_t limit) {
    char *buffer = g_malloc(limit + 2);
    size_t length = 0, count;
    while ((count = fread(buffer + length, 1, limit + 1 - length, stdin)) > 0) length += count;
    if (ferror(stdin) || length > limit) {
        g_free(buffer);
        return NULL;
    }
    buffer[length] = '\0';
    return buffer;
}

static int failed(const char *call, GError *error) {
    fprintf(stderr, "%s: %s\n", call, error->message);
    g_error_free(error);
    return 2;
}

static gint compare_strings(gconstpointer a, gconstpointer b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One search result as a line: label, secret, then the sorted attributes. */
static int print_item(SecretRetrievable *item) {
    GError *error = NULL;
    SecretValue *value = secret_retrievable_retrieve_secret_sync(item, NULL, &error);
    if (error != NULL) return failed("secret_retrievable_retrieve_secret_sync", error);
    gchar *label = secret_retrievable_get_label(item);
    GHashTable *attributes = secret_retrievable_get_attributes(item);
    GPtrArray *pairs = g_ptr_array_new_with_free_func(g_free);
    GHashTableIter iterator;
    gpointer name, text;
    g_hash_table_iter_init(&iterator, attributes);
    while (g_hash_table_iter_next(&iterator, &name, &text))
        g_ptr_array_add(pairs, g_strdup_printf("%s=%s", (const char *)name, (const char *)text));
    g_ptr_array_sort(pairs, compare_strings);
    printf("%s\t%s", label, value != NULL ? secret_value_get_text(value) : "(no secret)");
    for (guint index = 0; index < pairs->len; index++) printf("\t%s", (const char *)g_ptr_array_index(pairs, index));
    printf("\n");
    g_ptr_array_unref(pairs);
    g_hash_table_unref(attributes);
    g_free(label);
    if (value != NULL) secret_value_unref(value);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    const char *command = argv[1];
    int first = strcmp(command, "store") == 0 ? 4 : 2;
    if (argc < first || (argc - first) % 2 != 0) return usage();
    GHashTable *attributes = g_hash_table_new(g_str_hash, g_str_equal);
    for (int index = first; index < argc; index += 2) g_hash_table_insert(attributes, argv[index], argv[index + 1]);

    GError *error = NULL;
    int status = 0;
    if (strcmp(command, "store") == 0) {
        char *input = strcmp(argv[3], "-") == 0 ? read_input(2 * 1024 * 1024) : NULL;
        if (strcmp(argv[3], "-") == 0 && input == NULL) {
            fprintf(stderr, "cannot read the secret from standard input (at most 2 MiB)\n");
            status = 64;
        } else {
            const char *secret = input != NULL ? input : argv[3];
            secret_password_storev_sync(&schema, attributes, SECRET_COLLECTION_DEFAULT, argv[2], secret, NULL, &error);
            if (error != NULL) status = failed("secret_password_storev_sync", error);
        }
        g_free(input);
    } else if (strcmp(command, "lookup") == 0) {
        gchar *secret = secret_password_lookupv_sync(&schema, attributes, NULL, &error);
        if (error != NULL) status = failed("secret_password_lookupv_sync", error);
        else if (secret == NULL) status = 1;
        else printf("%s\n", secret);
        secret_password_free(secret);
    } else if (strcmp(command, "search") == 0) {
        GList *items = secret_password_searchv_sync(
            &schema, attributes, SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK | SECRET_SEARCH_LOAD_SECRETS, NULL, &error);
        if (error != NULL) status = failed("secret_password_searchv_sync", error);
        else if (items == NULL) status = 1;
        for (GList *item = items; item != NULL && status == 0; item = item->next) status = print_item(item->data);
        g_list_free_full(items, g_object_unref);
    } else if (strcmp(command, "clear") == 0) {
        gboolean removed = secret_password_clearv_sync(&schema, attributes, NULL, &error);
        if (error != NULL) status = failed("secret_password_clearv_sync", error);
        else if (!removed) status = 1;
    } else {
        status = usage();
    }
    g_hash_table_unref(attributes);
    return status;
}
