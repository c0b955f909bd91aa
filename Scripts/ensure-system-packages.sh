#!/usr/bin/env bash
# Makes sure the system has what the build needs: GRDB links the system SQLite (its headers
# and library), and the tests damage keychains with its shell (sqlite3). Sourced by the other
# scripts; Scripts/keychainctl sets sqlite_parts=library first, since running the tool needs
# no shell.
#
# Nothing is installed when SQLite is already usable, whatever the distribution. Otherwise the
# missing packages are installed with the package manager found (apt-get, dnf, yum, zypper,
# apk, pacman), through sudo when not root; with none of them, or no way to become root, the
# script names the packages for each distribution and exits 1.
#
# ensure_system_packages takes Debian package names, for scripts that need more on Debian
# (Scripts/benchmark-anchors needs GNOME Keyring's).

# apt-get waits up to 10 minutes for another apt or dpkg (unattended upgrades on a server, a
# fresh machine's first update) to release its lock, rather than failing at once.
apt_wait=(-o DPkg::Lock::Timeout=600)

# The package names of one part for a package manager. Parts: library (SQLite's headers and
# library) and shell (the sqlite3 program).
sqlite_package_names() {
    local manager=$1 part=$2
    case "$manager:$part" in
        apt-get:library) echo libsqlite3-dev ;;
        apt-get:shell) echo sqlite3 ;;
        dnf:library | yum:library) echo sqlite-devel ;;
        dnf:shell | yum:shell) echo sqlite ;;
        zypper:library) echo sqlite3-devel ;;
        zypper:shell) echo sqlite3 ;;
        apk:library) echo sqlite-dev ;;
        apk:shell) echo sqlite ;;
        pacman:*) echo sqlite ;;
    esac
}

# Whether SQLite's headers and library are there to build against: pkg-config knows them, or a
# C program that calls SQLite compiles and links.
sqlite_library_usable() {
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists sqlite3 2>/dev/null; then
        return 0
    fi
    local compiler
    for compiler in cc gcc clang; do
        command -v "$compiler" >/dev/null 2>&1 || continue
        printf '#include <sqlite3.h>\nint main(void) { return sqlite3_libversion_number() == 0; }\n' |
            "$compiler" -x c - -lsqlite3 -o /dev/null >/dev/null 2>&1 && return 0
    done
    return 1
}

sqlite_part_usable() {
    case "$1" in
        library) sqlite_library_usable ;;
        shell) command -v sqlite3 >/dev/null 2>&1 ;;
    esac
}

# The first package manager on PATH that this script knows.
system_package_manager() {
    local manager
    for manager in apt-get dnf yum zypper apk pacman; do
        if command -v "$manager" >/dev/null 2>&1; then
            echo "$manager"
            return 0
        fi
    done
    return 1
}

# What to run, per distribution, when this script cannot install the parts itself.
explain_sqlite_packages() {
    local parts=("$@") manager part name names line
    echo "swift-keychain needs SQLite: its headers and library to build, its sqlite3 shell for the tests." >&2
    echo "Install it with your distribution's package manager, as root:" >&2
    for manager in apt-get dnf yum zypper apk pacman; do
        names=""
        for part in "${parts[@]}"; do
            name=$(sqlite_package_names "$manager" "$part")
            # pacman's one package serves both parts.
            [[ " $names " == *" $name "* ]] || names+=" $name"
        done
        case "$manager" in
            apt-get) line="Debian, Ubuntu:            apt-get install" ;;
            dnf) line="Fedora, RHEL 8 and later:  dnf install" ;;
            yum) line="RHEL 7, Amazon Linux 2:    yum install" ;;
            zypper) line="openSUSE, SLES:            zypper install" ;;
            apk) line="Alpine:                    apk add" ;;
            pacman) line="Arch:                      pacman -S --needed" ;;
        esac
        echo "  $line$names" >&2
    done
}

# Installs whichever of the parts given (library, shell) is not usable yet.
ensure_sqlite() {
    local missing=() part manager names=() sudo=()
    for part in "$@"; do
        sqlite_part_usable "$part" || missing+=("$part")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    if ! manager=$(system_package_manager); then
        echo "SQLite is missing (${missing[*]}) and no known package manager (apt-get, dnf, yum, zypper, apk, pacman) is on PATH." >&2
        explain_sqlite_packages "${missing[@]}"
        exit 1
    fi
    for part in "${missing[@]}"; do names+=($(sqlite_package_names "$manager" "$part")); done
    if [ "$EUID" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "SQLite is missing (${missing[*]}); installing ${names[*]} needs root, and sudo is not on PATH." >&2
            explain_sqlite_packages "${missing[@]}"
            exit 1
        fi
        sudo=(sudo)
    fi
    echo "installing ${names[*]} with $manager" >&2
    local status=0
    case "$manager" in
        apt-get)
            "${sudo[@]}" apt-get "${apt_wait[@]}" update -q &&
                "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_wait[@]}" install -y -q --no-install-recommends "${names[@]}" ||
                status=$? ;;
        dnf | yum) "${sudo[@]}" "$manager" install -y "${names[@]}" || status=$? ;;
        zypper) "${sudo[@]}" zypper --non-interactive install "${names[@]}" || status=$? ;;
        apk) "${sudo[@]}" apk add "${names[@]}" || status=$? ;;
        pacman) "${sudo[@]}" pacman -S --needed --noconfirm "${names[@]}" || status=$? ;;
    esac
    for part in "${missing[@]}"; do
        if [ "$status" -ne 0 ] || ! sqlite_part_usable "$part"; then
            echo "$manager could not install what SQLite needs (${missing[*]}; exit status $status)." >&2
            explain_sqlite_packages "${missing[@]}"
            exit 1
        fi
    done
}

# Installs Debian packages by name when they are missing (dpkg and apt-get). Elsewhere it can
# only name them: it warns and goes on, and a later step fails if one is really missing.
ensure_system_packages() {
    local missing=() package sudo=""
    if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        echo "not a Debian system: make sure the equivalents of these Debian packages are installed: $*" >&2
        return 0
    fi
    for package in "$@"; do
        # Not `dpkg -s`: it succeeds for a removed package whose configuration files remain.
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q ' installed$' || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        [ "$EUID" -eq 0 ] || sudo="sudo"
        echo "installing ${missing[*]}" >&2
        $sudo apt-get "${apt_wait[@]}" update -q
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get "${apt_wait[@]}" install -y -q --no-install-recommends "${missing[@]}"
    fi
}

ensure_sqlite ${sqlite_parts:-library shell}
