#!/usr/bin/env bash
# Usage: source Scripts/gnome-keyring.sh      (after Scripts/ensure-system-packages.sh)
# GNOME Keyring for the benchmarks, never the user's: sourced by Scripts/benchmark-anchors
# and Scripts/benchmark-cli after Scripts/ensure-system-packages.sh.
#
#   ensure_gnome_keyring_packages   installs gcc, libsecret, gnome-keyring, D-Bus and
#                                   secret-tool when missing
#   build_secret_service_anchor     compiles Benchmarks/SecretServiceAnchor (libsecret's
#                                   synchronous API, as a native client uses it) into
#                                   .build/anchors/secret-service-anchor
#   with_gnome_keyring CMD...       runs CMD with gnome-keyring-daemon serving an empty,
#                                   unlocked login collection on a private D-Bus session bus,
#                                   with a throwaway HOME and keyring password; stops both
#                                   and removes the HOME afterwards

ensure_gnome_keyring_packages() {
    ensure_system_packages gcc pkg-config libsecret-1-dev libsecret-tools gnome-keyring dbus-daemon dbus-bin
}

build_secret_service_anchor() {
    mkdir -p .build/anchors
    gcc -O2 -Wall -o .build/anchors/secret-service-anchor Benchmarks/SecretServiceAnchor/secret-service-anchor.c \
        $(pkg-config --cflags --libs libsecret-1)
}

# A subshell, so that its EXIT trap removes the throwaway HOME however it ends.
with_gnome_keyring() (
    sandbox=$(mktemp -d -t keychain-gnome.XXXXXX)
    trap 'rm -rf "$sandbox"' EXIT
    mkdir -m 700 "$sandbox/home" "$sandbox/run"
    # dbus-run-session ends the bus when its command exits; the command stops the daemon first.
    HOME="$sandbox/home" XDG_RUNTIME_DIR="$sandbox/run" XDG_DATA_HOME="$sandbox/home/.local/share" \
        XDG_CONFIG_HOME="$sandbox/home/.config" KEYRING_PASSWORD="benchmark-throwaway" \
        dbus-run-session -- bash -c '
            set -euo pipefail
            # --unlock reads the password from stdin (no newline) and creates the login
            # collection, alias default, unlocked: no prompt on a headless machine.
            printf "%s" "$KEYRING_PASSWORD" | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
            daemon=$!
            trap "kill $daemon 2>/dev/null; wait $daemon 2>/dev/null || true" EXIT
            for _ in $(seq 100); do  # NameHasOwner, unlike a Secret Service call, starts nothing
                dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null \
                    | grep -q "boolean true" && break
                sleep 0.1
            done
            "$@"' gnome-keyring "$@" \
        2> >(grep -v "Failed to set fd limit" >&2)
)
