#include "CSDBus.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static keychain_sd_bus_handlers registered;

static int method(sd_bus_message *call, void *context, sd_bus_error *error) {
    return registered.method(call, context, error);
}

static int get(sd_bus *bus, const char *path, const char *interface, const char *property,
               sd_bus_message *reply, void *context, sd_bus_error *error) {
    (void)bus;
    return registered.get(path, interface, property, reply, context, error);
}

static int set(sd_bus *bus, const char *path, const char *interface, const char *property,
               sd_bus_message *value, void *context, sd_bus_error *error) {
    (void)bus;
    return registered.set(path, interface, property, value, context, error);
}

static int find(sd_bus *bus, const char *path, const char *interface, void *context, void **found,
                sd_bus_error *error) {
    (void)bus;
    (void)error;
    int exists = registered.find(path, interface, context);
    if (exists > 0) *found = context;
    return exists;
}

static int enumerate(sd_bus *bus, const char *prefix, void *context, char ***nodes, sd_bus_error *error) {
    (void)bus;
    (void)error;
    char **found = registered.enumerate(prefix, context);
    if (found == NULL) return -ENOMEM;
    *nodes = found;
    return 0;
}

#define UNPRIVILEGED SD_BUS_VTABLE_UNPRIVILEGED
// A change is announced by PropertiesChanged with the property's new value, as GNOME Keyring
// sends it: libsecret reads the value from the signal (a collection's Locked after Lock or
// Unlock) and fails an assertion when only the name comes.
#define CHANGE_FLAGS (SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)

static const sd_bus_vtable service_table[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_NAMES("OpenSession", "sv", SD_BUS_PARAM(algorithm) SD_BUS_PARAM(input), "vo",
                             SD_BUS_PARAM(output) SD_BUS_PARAM(result), method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("CreateCollection", "a{sv}s", SD_BUS_PARAM(properties) SD_BUS_PARAM(alias), "oo",
                             SD_BUS_PARAM(collection) SD_BUS_PARAM(prompt), method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SearchItems", "a{ss}", SD_BUS_PARAM(attributes), "aoao",
                             SD_BUS_PARAM(unlocked) SD_BUS_PARAM(locked), method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("Unlock", "ao", SD_BUS_PARAM(objects), "aoo",
                             SD_BUS_PARAM(unlocked) SD_BUS_PARAM(prompt), method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("Lock", "ao", SD_BUS_PARAM(objects), "aoo",
                             SD_BUS_PARAM(locked) SD_BUS_PARAM(Prompt), method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("GetSecrets", "aoo", SD_BUS_PARAM(items) SD_BUS_PARAM(session), "a{o(oayays)}",
                             SD_BUS_PARAM(secrets), method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("ReadAlias", "s", SD_BUS_PARAM(name), "o", SD_BUS_PARAM(collection), method,
                             UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SetAlias", "so", SD_BUS_PARAM(name) SD_BUS_PARAM(collection), "", , method,
                             UNPRIVILEGED),
    SD_BUS_PROPERTY("Collections", "ao", get, 0, CHANGE_FLAGS),
    SD_BUS_SIGNAL_WITH_NAMES("CollectionCreated", "o", SD_BUS_PARAM(collection), 0),
    SD_BUS_SIGNAL_WITH_NAMES("CollectionDeleted", "o", SD_BUS_PARAM(collection), 0),
    SD_BUS_SIGNAL_WITH_NAMES("CollectionChanged", "o", SD_BUS_PARAM(collection), 0),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable collection_table[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_NAMES("Delete", "", , "o", SD_BUS_PARAM(prompt), method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SearchItems", "a{ss}", SD_BUS_PARAM(attributes), "ao", SD_BUS_PARAM(results),
                             method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("CreateItem", "a{sv}(oayays)b",
                             SD_BUS_PARAM(properties) SD_BUS_PARAM(secret) SD_BUS_PARAM(replace), "oo",
                             SD_BUS_PARAM(item) SD_BUS_PARAM(prompt), method, UNPRIVILEGED),
    SD_BUS_PROPERTY("Items", "ao", get, 0, CHANGE_FLAGS),
    SD_BUS_WRITABLE_PROPERTY("Label", "s", get, set, 0, CHANGE_FLAGS | UNPRIVILEGED),
    SD_BUS_PROPERTY("Locked", "b", get, 0, CHANGE_FLAGS),
    SD_BUS_PROPERTY("Created", "t", get, 0, CHANGE_FLAGS),
    SD_BUS_PROPERTY("Modified", "t", get, 0, CHANGE_FLAGS),
    SD_BUS_SIGNAL_WITH_NAMES("ItemCreated", "o", SD_BUS_PARAM(item), 0),
    SD_BUS_SIGNAL_WITH_NAMES("ItemDeleted", "o", SD_BUS_PARAM(item), 0),
    SD_BUS_SIGNAL_WITH_NAMES("ItemChanged", "o", SD_BUS_PARAM(item), 0),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable item_table[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_NAMES("Delete", "", , "o", SD_BUS_PARAM(Prompt), method, UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("GetSecret", "o", SD_BUS_PARAM(session), "(oayays)", SD_BUS_PARAM(secret), method,
                             UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SetSecret", "(oayays)", SD_BUS_PARAM(secret), "", , method, UNPRIVILEGED),
    SD_BUS_PROPERTY("Locked", "b", get, 0, CHANGE_FLAGS),
    SD_BUS_WRITABLE_PROPERTY("Attributes", "a{ss}", get, set, 0, CHANGE_FLAGS | UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Label", "s", get, set, 0, CHANGE_FLAGS | UNPRIVILEGED),
    SD_BUS_PROPERTY("Created", "t", get, 0, CHANGE_FLAGS),
    SD_BUS_PROPERTY("Modified", "t", get, 0, CHANGE_FLAGS),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable session_table[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Close", "", "", method, UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

// A prompt (Unlock of a locked keychain): Prompt asks the user off the bus thread; Completed
// tells the outcome.
static const sd_bus_vtable prompt_table[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_NAMES("Prompt", "s", SD_BUS_PARAM(window_id), "", , method, UNPRIVILEGED),
    SD_BUS_METHOD("Dismiss", "", "", method, UNPRIVILEGED),
    SD_BUS_SIGNAL_WITH_NAMES("Completed", "bv", SD_BUS_PARAM(dismissed) SD_BUS_PARAM(result), 0),
    SD_BUS_VTABLE_END,
};

int keychain_sd_bus_register_secret_service(sd_bus *bus, const char *prefix,
                                            const keychain_sd_bus_handlers *handlers, void *context) {
    registered = *handlers;
    static const struct {
        const char *interface;
        const sd_bus_vtable *table;
    } interfaces[] = {
        {"org.freedesktop.Secret.Service", service_table},
        {"org.freedesktop.Secret.Collection", collection_table},
        {"org.freedesktop.Secret.Item", item_table},
        {"org.freedesktop.Secret.Session", session_table},
        {"org.freedesktop.Secret.Prompt", prompt_table},
    };
    for (size_t index = 0; index < sizeof interfaces / sizeof interfaces[0]; index++) {
        int status = sd_bus_add_fallback_vtable(bus, NULL, prefix, interfaces[index].interface,
                                                interfaces[index].table, find, context);
        if (status < 0) return status;
    }
    return sd_bus_add_node_enumerator(bus, NULL, prefix, enumerate, context);
}
