#!/usr/bin/env bash
# Installs the system packages the build needs when they are missing: GRDB links the
# system SQLite (libsqlite3-dev), and the tests damage keychains with its shell (sqlite3).
# Sourced by the other scripts, which may call ensure_system_packages for more
# (Scripts/benchmark-anchors needs GNOME Keyring's).
ensure_system_packages() {
    local missing=() package sudo=""
    for package in "$@"; do
        # Not `dpkg -s`: it succeeds for a removed package whose configuration files remain.
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q ' installed$' || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        echo "installing ${missing[*]}" >&2
        $sudo apt-get update -q
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
}
ensure_system_packages libsqlite3-dev sqlite3
