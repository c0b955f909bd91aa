"""Runs a program as a container under Docker's default seccomp profile would run it, as far
as the keychain is concerned: the kernel keyring's system calls (keyctl, add_key,
request_key) fail with EPERM, and everything else is allowed. The filter is inherited by the
program (execve keeps it).

Usage: without-keyring.py PROGRAM [ARGUMENT...]
"""
import errno
import os
import sys

import seccomp

if len(sys.argv) < 2:
    sys.exit("usage: without-keyring.py PROGRAM [ARGUMENT...]")
refusing = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
for call in ("keyctl", "add_key", "request_key"):
    refusing.add_rule(seccomp.ERRNO(errno.EPERM), call)
refusing.load()
os.execv(sys.argv[1], sys.argv[1:])
