#!/usr/bin/env bash
# Installs the system packages the build needs when they are missing: GRDB links the
# system SQLite (libsqlite3-dev). Sourced by the other scripts.
missing=()
for package in libsqlite3-dev; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing ${missing[*]}" >&2
    $sudo apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
