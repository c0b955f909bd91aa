#!/usr/bin/env bash
# Usage: source "$(dirname "$0")/swift-build.sh"; swift_build [swift build options...]
# Runs `swift build` with the options given, its output on standard error (standard output
# stays the calling script's own). One mechanism for every script that builds, for one known
# stop: swift-certificates imports a module named Security whenever one is visible
# (`#if canImport(Security)`), so when it is compiled again (other build options in the same
# folder, an updated checkout) beside this package's own Security, compiled before and
# depending on it, the build stops with "circular dependency between modules 'X509' and
# 'Security'". Then the compiled Security module is removed, as the README says to, and the
# build runs once more; it fails only if that does not clear it.
swift_build() {
    local log status
    log=$(mktemp)
    # The status through a file: the pipe's own would be tee's, and the caller's errexit and
    # pipefail settings stay untouched.
    { status=0; swift build "$@" 2>&1 || status=$?; echo "$status" > "$log.status"; } | tee "$log" >&2
    status=$(cat "$log.status")
    if [ "$status" -ne 0 ] && grep -q "circular dependency between modules 'X509' and 'Security'" "$log"; then
        local scratch=.build previous=
        for argument in "$@"; do
            [ "$previous" = --scratch-path ] && scratch=$argument
            case "$argument" in --scratch-path=*) scratch=${argument#--scratch-path=} ;; esac
            previous=$argument
        done
        echo "swift-build: removing the compiled Security module that swift-certificates found, and building again" >&2
        rm -f "$scratch"/*/*/Modules/Security.{swiftmodule,swiftdoc,swiftsourceinfo,abi.json}
        status=0
        swift build "$@" >&2 || status=$?
    fi
    rm -f "$log" "$log.status"
    return "$status"
}
