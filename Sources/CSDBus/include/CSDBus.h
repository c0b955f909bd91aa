// sd-bus (libsystemd) for the Secret Service provider, plus what Swift cannot write itself:
// sd-bus's object tables are built with C macros, so the tables of the Secret Service
// interfaces are declared here and forward every call to the handlers the provider gives.
#ifndef CSDBUS_H
#define CSDBUS_H

#include <systemd/sd-bus.h>

/// A method call on one of the Secret Service interfaces; `context` is the provider's.
typedef int (*keychain_sd_bus_method)(sd_bus_message *call, void *context, sd_bus_error *error);
/// Appends the value of `property` of the object at `path` to `reply`.
typedef int (*keychain_sd_bus_getter)(const char *path, const char *interface, const char *property,
                                      sd_bus_message *reply, void *context, sd_bus_error *error);
/// Sets `property` of the object at `path` from `value`.
typedef int (*keychain_sd_bus_setter)(const char *path, const char *interface, const char *property,
                                      sd_bus_message *value, void *context, sd_bus_error *error);
/// Whether the object at `path` has `interface`: 1 if it has, 0 if not.
typedef int (*keychain_sd_bus_finder)(const char *path, const char *interface, void *context);

/// The paths of the objects under `path`, for introspection's child nodes: a NULL-terminated
/// array of strings, the array and each string allocated with malloc (sd-bus frees them), or
/// NULL when memory ran out.
typedef char **(*keychain_sd_bus_enumerator)(const char *path, void *context);

/// The provider's side of the tables.
typedef struct {
    keychain_sd_bus_method method;
    keychain_sd_bus_getter get;
    keychain_sd_bus_setter set;
    keychain_sd_bus_finder find;
    keychain_sd_bus_enumerator enumerate;
} keychain_sd_bus_handlers;

/// Registers the Secret Service API 0.2 interfaces (Service, Collection, Item, Session, Prompt) for
/// every object path under `prefix`, with sd-bus's Properties and Introspectable on top; the
/// objects `enumerate` names are introspection's child nodes.
/// sd-bus checks each call's signature against the tables before a handler runs. The
/// handlers are copied; `context` is passed to each. Returns 0 or a negative errno.
int keychain_sd_bus_register_secret_service(sd_bus *bus, const char *prefix,
                                            const keychain_sd_bus_handlers *handlers, void *context);

#endif
