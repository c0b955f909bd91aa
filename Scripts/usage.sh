#!/usr/bin/env bash
# Usage: source "$(dirname "$0")/usage.sh" "$@"      (in a script, after its header comment)
# With -h or --help as the script's first argument, prints the script's header comment from
# its `# Usage:` line to the first line that is not a comment, and exits 0. One mechanism
# for every script, so that the help is the header and cannot drift from it.
case "${1:-}" in
    -h|--help)
        sed -n '/^# Usage:/,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
        exit 0
        ;;
esac
