#!/usr/bin/env bash
# Usage: source "$(dirname "$0")/swift-build.sh"; swift_build [swift build options...]
# Runs `swift build` with the options given, its output on standard error (standard output
# stays the calling script's own). One mechanism for every script that builds, for one known
# stop: swift-certificates imports a module named Security whenever one is visible
# (`#if canImport(Security)`), so when it is compiled again beside this package's own
# Security, compiled before and depending on it, the build stops with "circular dependency
# between modules 'X509' and 'Security'". So the compiled Security module is removed before a
# build whose options differ from the last one in the same folder (which compiles everything
# again); and when a build stops at the cycle anyway (after a build by hand, an updated
# checkout), the module is removed, as the README says to, and the build runs once more.
swift_build() {
    local scratch=.build previous= argument options=()
    for argument in "$@"; do
        [ "$previous" = --scratch-path ] && scratch=$argument
        case "$argument" in --scratch-path=*) scratch=${argument#--scratch-path=} ;; esac
        # The product is not an option of the build: products of one folder share modules.
        [ "$argument" != --product ] && [ "$previous" != --product ] && options+=("$argument")
        previous=$argument
    done
    local record="$scratch/swift-build-options"
    if [ -f "$record" ] && [ "$(cat "$record")" != "${options[*]}" ]; then
        forget_security_module "$scratch"
    fi
    local log status
    log=$(mktemp)
    # The status through a file: the pipe's own would be tee's, and the caller's errexit and
    # pipefail settings stay untouched.
    { status=0; swift build "$@" 2>&1 || status=$?; echo "$status" > "$log.status"; } | tee "$log" >&2
    status=$(cat "$log.status")
    if [ "$status" -ne 0 ] && grep -q "circular dependency between modules 'X509' and 'Security'" "$log"; then
        echo "swift-build: removing the compiled Security module that swift-certificates found, and building again" >&2
        forget_security_module "$scratch"
        status=0
        swift build "$@" >&2 || status=$?
    fi
    rm -f "$log" "$log.status"
    if [ "$status" -eq 0 ]; then
        mkdir -p "$scratch" && echo "${options[*]}" > "$record"
    fi
    return "$status"
}

# Removes this package's compiled Security module from every configuration of a build folder.
forget_security_module() {
    rm -f "$1"/*/*/Modules/Security.{swiftmodule,swiftdoc,swiftsourceinfo,abi.json}
}
