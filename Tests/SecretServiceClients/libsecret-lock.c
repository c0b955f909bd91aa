/*
 * A C client of libsecret's object API that follows a collection's lock, as a program
 * that keeps a SecretCollection around (a password manager, an applet) does: it loads the
 * collection of ALIAS (default, login, session) with its items, locks it, unlocks it, and
 * stores a password in it after the unlock. After each step it prints what libsecret's
 * cached proxies say, which libsecret updates from the provider's PropertiesChanged:
 *
 *   locked <collection Locked> <Locked of each item, in order>
 *
 * Run with G_DEBUG=fatal-criticals, a libsecret assertion (such as the one that fails when a
 * PropertiesChanged names Locked without its value) ends it with SIGTRAP.
 *
 *   libsecret-lock ALIAS
 *
 * Exit status: 0 done; 2 libsecret reported an error (its message on standard error); 3 the
 * alias names no collection; 64 bad arguments.
 */
#include <libsecret/secret.h>
#include <stdio.h>

/* Lets libsecret's proxies take in the signals sent before the provider's answer to one more
 * call: D-Bus delivers messages in order, and the proxies update on the default context. */
static void settle(SecretService *service) {
    GError *error = NULL;
    GVariant *answer = g_dbus_proxy_call_sync(G_DBUS_PROXY(service), "ReadAlias", g_variant_new("(s)", "default"),
                                              G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    if (answer != NULL) g_variant_unref(answer);
    g_clear_error(&error);
    while (g_main_context_iteration(NULL, FALSE)) {
    }
}

static void show(SecretCollection *collection) {
    printf("locked %d", secret_collection_get_locked(collection) ? 1 : 0);
    GList *items = secret_collection_get_items(collection);
    for (GList *item = items; item != NULL; item = item->next) {
        printf(" %d", secret_item_get_locked(item->data) ? 1 : 0);
    }
    g_list_free_full(items, g_object_unref);
    printf("\n");
    fflush(stdout);
}

static int failed(GError *error) {
    fprintf(stderr, "libsecret-lock: %s\n", error->message);
    g_error_free(error);
    return 2;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: libsecret-lock ALIAS\n");
        return 64;
    }
    GError *error = NULL;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, &error);
    if (service == NULL) return failed(error);
    SecretCollection *collection =
        secret_collection_for_alias_sync(service, argv[1], SECRET_COLLECTION_LOAD_ITEMS, NULL, &error);
    if (error != NULL) return failed(error);
    if (collection == NULL) return 3;
    show(collection);

    GList *objects = g_list_append(NULL, collection);
    secret_service_lock_sync(service, objects, NULL, NULL, &error);
    if (error != NULL) return failed(error);
    settle(service);
    show(collection);

    secret_service_unlock_sync(service, objects, NULL, NULL, &error);
    if (error != NULL) return failed(error);
    settle(service);
    show(collection);
    g_list_free(objects);

    /* The store-after-unlock path: libsecret reads the collection's Locked before it stores. */
    const gchar *path = g_dbus_proxy_get_object_path(G_DBUS_PROXY(collection));
    gboolean stored = secret_password_store_sync(SECRET_SCHEMA_COMPAT_NETWORK, path, "after unlock", "stored after unlock",
                                                 NULL, &error, "server", "lock.example", "user", "ann", NULL);
    if (!stored) return failed(error);
    settle(service);
    show(collection);
    g_object_unref(collection);
    g_object_unref(service);
    return 0;
}
