#!/usr/bin/python3
"""D-Bus fuzzer for keychain-secret-service.

    fuzz_secret_service.py --provider PATH (--calls N | --seconds S) [--seed N]
                           [--rss-bound-mib M] [--timeout T]

Starts the provider on the session bus of DBUS_SESSION_BUS_ADDRESS, which must be a private
bus with no Secret Service on it (Scripts/fuzz-secret-service makes one with
dbus-run-session; the Swift test uses PrivateSessionBus), over a throwaway keychain folder
(XDG_DATA_HOME). Then sends it a fixed-seed stream of method calls over a few connections:
well-typed calls of every method of every interface with random arguments, calls with
wrong signatures, random interfaces, members and object paths, huge arrays and strings,
property gets and sets, sessions (plain and dh) opened and closed and connections dropped at
random, and secrets of random sizes, each stored and read back at once.

The bus checks every message's wire format before the provider sees it, so the fuzzer works
at the level of D-Bus types (any signature, any value): that is all a client can make
reach the provider.

After the run the provider must still be running, unlock its collection (which the run may
have locked) without a prompt, and store and return a secret in a normal session; it must never have ended (crash, trap or core), never have let a call go unanswered
for --timeout seconds, never have returned a secret other than the one stored, not have
grown its memory (VmRSS) by more than --rss-bound-mib after a warm-up, and no secret it was
given may appear in its standard error. The last line printed is the verdict,
`verdict: PASS ...` (exit status 0) or `verdict: FAIL ...` (exit status 1).

The memory bound: everything the provider keeps between calls is bounded by its Limits
(at most 1,024 sessions of a few hundred bytes, 4,096 remembered clients, a bounded SQLite
page cache), and the items this fuzzer can store with large secrets are bounded to 16
(4 services x 4 accounts, stored with replace); a call's own memory is bounded by its
message, at most about 4 MiB here. So once warmed up (a quarter of the run), growth of more
than a few such messages plus the allocator's slack (64 MiB by default) is a leak.
"""

import argparse
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection
from secretstorage.dhcrypto import Session as DHSession, int_to_bytes

BUS_NAME = "org.freedesktop.secrets"
SERVICE_PATH = "/org/freedesktop/secrets"
COLLECTION_PATH = "/org/freedesktop/secrets/collection/login"
ALIAS_PATH = "/org/freedesktop/secrets/aliases/default"
SESSION_PREFIX = "/org/freedesktop/secrets/session/"
DH = "dh-ietf1024-sha256-aes128-cbc-pkcs7"
SECRET_MAX = 1 << 20
NO_AUTO_START = 2
# Secrets larger than this are stored only under the 16 bounded attribute sets.
SMALL_SECRET = 64 << 10
# The large strings and arrays of one call add up to at most this many bytes.
MESSAGE_ROOM = 4 << 20

SERVICE = "org.freedesktop.Secret.Service"
COLLECTION = "org.freedesktop.Secret.Collection"
ITEM = "org.freedesktop.Secret.Item"
SESSION = "org.freedesktop.Secret.Session"
PROPERTIES = "org.freedesktop.DBus.Properties"

# Every method of the API (Secret Service 0.2) with its signature, per interface.
METHODS = {
    SERVICE: [("OpenSession", "sv"), ("CreateCollection", "a{sv}s"), ("SearchItems", "a{ss}"), ("Unlock", "ao"),
              ("Lock", "ao"), ("GetSecrets", "aoo"), ("ReadAlias", "s"), ("SetAlias", "so")],
    COLLECTION: [("Delete", ""), ("SearchItems", "a{ss}"), ("CreateItem", "a{sv}(oayays)b")],
    ITEM: [("Delete", ""), ("GetSecret", "o"), ("SetSecret", "(oayays)")],
    SESSION: [("Close", "")],
    PROPERTIES: [("Get", "ss"), ("Set", "ssv"), ("GetAll", "s")],
    "org.freedesktop.DBus.Introspectable": [("Introspect", "")],
    "org.freedesktop.DBus.Peer": [("Ping", ""), ("GetMachineId", "")],
}
PROPERTY_NAMES = ["Collections", "Items", "Label", "Locked", "Created", "Modified", "Attributes", "Nothing", ""]
ATTRIBUTE_NAMES = ["service", "account", "username", "xdg:schema", "server", "user", "a", "", "\u00e9t\u00e9"]
BASIC_TYPES = "ybnqiuxtdsog"


class Failure(Exception):
    """A rule the provider broke: the run ends with verdict FAIL and this message."""


class Fuzzer:
    def __init__(self, rng, timeout):
        self.rng = rng
        self.timeout = timeout
        self.connections = []
        # Per connection: its open sessions, as (path, AES key or None for plain).
        self.sessions = {}
        self.items = []           # item paths the provider returned
        self.markers = []         # a unique token inside every secret sent
        self.replies = Counter()  # reply kinds and error names, for the summary
        self.calls = 0
        self.room = MESSAGE_ROOM

    # -- connections and calls

    def connection(self):
        if not self.connections or (len(self.connections) < 3 and self.rng.random() < 0.05):
            connection = open_dbus_connection(bus="SESSION")
            self.connections.append(connection)
            self.sessions[connection] = []
        return self.rng.choice(self.connections)

    def drop_connection(self):
        """A client leaving the bus, with whatever sessions it had open."""
        if self.connections:
            connection = self.connections.pop(self.rng.randrange(len(self.connections)))
            self.sessions.pop(connection, None)
            connection.close()

    def call(self, path, interface, member, signature, body, connection=None):
        """Sends one call and waits at most --timeout for its answer: (ok, reply body or error name)."""
        connection = connection or self.connection()
        message = new_method_call(DBusAddress(path, bus_name=BUS_NAME, interface=interface), member, signature, body)
        # Never let the bus start another provider (GNOME Keyring's activation file) in its place.
        message.header.flags |= NO_AUTO_START
        self.calls += 1
        try:
            reply = connection.send_and_get_reply(message, timeout=self.timeout)
        except TimeoutError:
            raise Failure(f"no answer in {self.timeout} s to {interface}.{member}({signature}) on {path[:120]}")
        if reply.header.message_type == MessageType.error:
            name = reply.header.fields.get(HeaderFields.error_name, "?")
            self.replies[name] += 1
            return False, name
        self.replies["reply"] += 1
        return True, reply.body

    # -- random values

    def string(self):
        rng = self.rng
        choice = rng.random()
        if choice < 0.3:
            return rng.choice(ATTRIBUTE_NAMES + PROPERTY_NAMES + ["plain", DH, "default", "login", "text/plain"])
        if choice < 0.6:
            return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz:.-_ ") for _ in range(rng.randint(0, 20)))
        if choice < 0.8:
            # Any code point but NUL and the surrogates, which D-Bus strings cannot hold.
            return "".join(chr(rng.choice([rng.randint(1, 0xD7FF), rng.randint(0xE000, 0x10FFFF)]))
                           for _ in range(rng.randint(1, 40)))
        if choice < 0.97:
            # Around the provider's 4,096-byte bound on names, values and labels.
            return "x" * self.spend(rng.choice([4095, 4096, 4097, 10000]))
        return "y" * self.spend(rng.randint(100_000, 1_000_000))

    def spend(self, size):
        """`size` bytes of the current call's room, or as many as are left: every call stays
        within MESSAGE_ROOM, so the fuzzer and the provider's bound stay small."""
        size = max(0, min(size, self.room))
        self.room -= size
        return size

    def item_path(self):
        rng = self.rng
        if self.items and rng.random() < 0.6:
            return rng.choice(self.items)
        prefix = rng.choice([COLLECTION_PATH, ALIAS_PATH])
        return prefix + "/" + rng.choice([
            "67656e70" + "".join(rng.choice("0123456789abcdef") for _ in range(32)),  # a genp reference no item has
            "67656E70" + "0" * 32, "696e6574" + "0" * 32, "0" * 40, "0" * 39, "x", "_" * 200])

    def session_path(self):
        rng = self.rng
        own = [path for sessions in self.sessions.values() for path, _ in sessions]
        if own and rng.random() < 0.6:
            return rng.choice(own)
        return SESSION_PREFIX + rng.choice(["0", "1", "2", str(rng.randint(0, 2**64 - 1)), "9" * 25, "x", "1_2"])

    def path(self):
        rng = self.rng
        choice = rng.random()
        if choice < 0.15:
            return rng.choice([SERVICE_PATH, COLLECTION_PATH, ALIAS_PATH, "/", "/org/freedesktop/secrets/aliases/other",
                               "/org/freedesktop/secrets/collection/other", "/org/freedesktop/secrets/collection"])
        if choice < 0.5:
            return self.item_path()
        if choice < 0.75:
            return self.session_path()
        segments = [rng.choice(["org", "freedesktop", "secrets", "a", "_", "9"] +
                               ["".join(rng.choice("abcXYZ019_") for _ in range(rng.randint(1, 12)))])
                    for _ in range(rng.randint(1, 8))]
        return "/" + "/".join(segments)

    def signature(self, depth=0):
        """One complete type, random."""
        rng = self.rng
        choice = rng.random()
        if depth >= 3 or choice < 0.55:
            return rng.choice(BASIC_TYPES)
        if choice < 0.7:
            return "a" + self.signature(depth + 1)
        if choice < 0.82:
            return "a{" + rng.choice(BASIC_TYPES) + self.signature(depth + 1) + "}"
        if choice < 0.94:
            return "(" + "".join(self.signature(depth + 1) for _ in range(rng.randint(1, 3))) + ")"
        return "v"

    @staticmethod
    def split(signature):
        """The complete types of a signature."""
        types, index = [], 0
        while index < len(signature):
            end = Fuzzer.type_end(signature, index)
            types.append(signature[index:end])
            index = end
        return types

    @staticmethod
    def type_end(signature, index):
        kind = signature[index]
        if kind == "a":
            return Fuzzer.type_end(signature, index + 1)
        if kind in "({":
            close = ")" if kind == "(" else "}"
            index += 1
            while signature[index] != close:
                index = Fuzzer.type_end(signature, index)
            return index + 1
        return index + 1

    def value(self, kind, depth=0):
        """A random value of the complete type `kind`, bounded in size."""
        rng = self.rng
        if kind == "y":
            return rng.randint(0, 255)
        if kind == "b":
            return rng.random() < 0.5
        if kind in "nqiuxt":
            bits = {"n": 16, "q": 16, "i": 32, "u": 32, "x": 64, "t": 64}[kind]
            low = -(1 << (bits - 1)) if kind in "nix" else 0
            high = (1 << (bits - 1)) - 1 if kind in "nix" else (1 << bits) - 1
            return rng.choice([low, high, 0, 1, rng.randint(low, high)])
        if kind == "d":
            return rng.choice([0.0, -1.5, float("inf"), float("nan"), rng.uniform(-1e300, 1e300)])
        if kind == "s":
            return self.string()
        if kind == "o":
            return self.path()
        if kind == "g":
            return "".join(self.signature() for _ in range(rng.randint(0, 3)))
        if kind == "v":
            inner = self.signature(depth + 1)
            return (inner, self.value(inner, depth + 1))
        if kind.startswith("a{"):
            key, value = self.split(kind[2:-1])
            count = self.count(depth)
            entries = {}
            for _ in range(count):
                entries[self.value(key, depth + 1)] = self.value(value, depth + 1)
            return entries
        if kind == "ay":
            return self.blob()
        if kind.startswith("a"):
            return [self.value(kind[1:], depth + 1) for _ in range(self.count(depth))]
        if kind.startswith("("):
            return tuple(self.value(part, depth + 1) for part in self.split(kind[1:-1]))
        raise ValueError(kind)

    def count(self, depth):
        """Elements of an array: mostly few, sometimes past the provider's bounds (64, 4,096)."""
        rng = self.rng
        if depth > 0 or rng.random() < 0.9:
            return rng.randint(0, 5)
        return rng.choice([64, 65, 4096, 4097, 20000])

    def blob(self):
        rng = self.rng
        size = rng.choice([0, 1, 15, 16, 17, 127, 128, 129, 1024, rng.randint(0, 4096), SECRET_MAX, SECRET_MAX + 1,
                           SECRET_MAX + 17, 3 * SECRET_MAX])
        return rng.randbytes(self.spend(size))

    def attributes(self, bounded=False):
        """Lookup attributes: with `bounded`, a service and account from small pools (so that
        items stored with replace stay few), else anything."""
        rng = self.rng
        if bounded:
            values = {"service": f"fuzz-{rng.randrange(4)}", "account": f"user-{rng.randrange(4)}"}
        else:
            values = {self.string() if rng.random() < 0.3 else rng.choice(ATTRIBUTE_NAMES): self.string()
                      for _ in range(self.count(0))}
        if rng.random() < 0.3:
            values["xdg:schema"] = "org.example.Fuzz"
        return values

    def secret_bytes(self):
        """A secret of a random size with a unique marker in it, to look for in stderr."""
        rng = self.rng
        marker = "FUZZSECRET%016x" % rng.getrandbits(64)
        self.markers.append(marker)
        size = rng.choice([0, 1, 16, 100, 4096, rng.randint(0, 65536), SECRET_MAX - len(marker), SECRET_MAX])
        return (marker.encode() + rng.randbytes(max(0, size - len(marker))))[:max(size, len(marker))]

    # -- sessions and secrets

    def open_session(self, connection, dh):
        """Opens a plain or dh session on `connection`; its (path, key) or None if refused."""
        if dh:
            client = DHSession()
            ok, body = self.call(SERVICE_PATH, SERVICE, "OpenSession", "sv",
                                 (DH, ("ay", int_to_bytes(client.my_public_key))), connection)
            if not ok:
                return None
            client.set_server_public_key(int.from_bytes(body[0][1], "big"))
            session = (body[1], client.aes_key)
        else:
            ok, body = self.call(SERVICE_PATH, SERVICE, "OpenSession", "sv", ("plain", ("s", "")), connection)
            if not ok:
                return None
            session = (body[1], None)
        self.sessions[connection].append(session)
        return session

    def sealed(self, session, secret):
        """The (oayays) struct carrying `secret` in `session`."""
        path, key = session
        if key is None:
            return (path, b"", secret, "text/plain")
        iv = self.rng.randbytes(16)
        padder = padding.PKCS7(128).padder()
        encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        data = padder.update(secret) + padder.finalize()
        return (path, iv, encryptor.update(data) + encryptor.finalize(), "text/plain")

    def opened(self, session, struct):
        path, key = session
        _, parameters, value, _ = struct
        if key is None:
            return bytes(value)
        decryptor = Cipher(algorithms.AES(key), modes.CBC(bytes(parameters))).decryptor()
        unpadder = padding.PKCS7(128).unpadder()
        return unpadder.update(decryptor.update(bytes(value)) + decryptor.finalize()) + unpadder.finalize()

    def store_and_read_back(self, connection=None, strict=False):
        """A normal client's store: CreateItem in an open session, then GetSecret, which must
        return exactly the secret stored. With `strict`, a refused session or store fails too."""
        connection = connection or self.connection()
        # As a client does: mostly in a session it has open, sometimes in a new one.
        open_sessions = self.sessions[connection]
        if open_sessions and self.rng.random() < 0.8:
            session = self.rng.choice(open_sessions)
        else:
            session = self.open_session(connection, dh=self.rng.random() < 0.5)
        if session is None:
            if strict:
                raise Failure("a normal OpenSession failed")
            return
        secret = self.secret_bytes()
        bounded = strict or len(secret) > SMALL_SECRET or self.rng.random() < 0.7
        # A normal client's label in the closing check; else anything, past 4,096 bytes too.
        label = "Fuzz check" if strict else self.string()[:4096]
        properties = {"org.freedesktop.Secret.Item.Label": ("s", label),
                      "org.freedesktop.Secret.Item.Attributes": ("a{ss}", {"service": "fuzz-check", "account": "check"}
                                                                 if strict else self.attributes(bounded=bounded))}
        ok, body = self.call(COLLECTION_PATH, COLLECTION, "CreateItem", "a{sv}(oayays)b",
                             (properties, self.sealed(session, secret), bounded), connection)
        if not ok:
            if strict:
                raise Failure(f"a normal CreateItem failed: {body}")
            return
        path = body[0]
        if path not in self.items:
            self.items.append(path)
        ok, body = self.call(path, ITEM, "GetSecret", "o", (session[0],), connection)
        if not ok:
            raise Failure(f"GetSecret of the item just stored failed: {body}")
        if self.opened(session, body[0]) != secret:
            raise Failure(f"GetSecret returned another secret than the {len(secret)}-byte one just stored")

    # -- one fuzz step

    def step(self):
        rng = self.rng
        self.room = MESSAGE_ROOM
        action = rng.random()
        if action < 0.35:
            # A method of the API with its right signature and random arguments.
            interface = rng.choice(list(METHODS))
            member, signature = rng.choice(METHODS[interface])
            path = {SERVICE: SERVICE_PATH, COLLECTION: rng.choice([COLLECTION_PATH, ALIAS_PATH]),
                    ITEM: self.item_path(), SESSION: self.session_path()}.get(interface) or self.path()
            if rng.random() < 0.2:
                path = self.path()
            self.call(path, interface, member, signature, self.arguments(member, signature))
        elif action < 0.5:
            # A method of the API with a wrong signature.
            interface = rng.choice(list(METHODS))
            member, _ = rng.choice(METHODS[interface])
            types = [self.signature() for _ in range(rng.randint(0, 4))]
            self.call(self.path(), interface, member, "".join(types), tuple(self.value(kind) for kind in types))
        elif action < 0.58:
            # A random interface or member.
            interface = rng.choice(list(METHODS) + ["org.freedesktop.Secret.Prompt", "org.example.Nothing"])
            member = rng.choice(["Frob", "OpenSession", "Get", "Delete", "X" * 255])
            types = [self.signature() for _ in range(rng.randint(0, 3))]
            self.call(self.path(), interface, member, "".join(types), tuple(self.value(kind) for kind in types))
        elif action < 0.68:
            # Properties of every object, read and written with random values.
            path = self.path() if rng.random() < 0.5 else rng.choice([SERVICE_PATH, COLLECTION_PATH, self.item_path()])
            interface = rng.choice([SERVICE, COLLECTION, ITEM, SESSION, self.string()])
            name = rng.choice(PROPERTY_NAMES)
            choice = rng.random()
            if choice < 0.4:
                self.call(path, PROPERTIES, "Get", "ss", (interface, name))
            elif choice < 0.6:
                self.call(path, PROPERTIES, "GetAll", "s", (interface,))
            else:
                kind = rng.choice(["s", "a{ss}", self.signature()])
                value = self.attributes() if kind == "a{ss}" else self.value(kind)
                self.call(path, PROPERTIES, "Set", "ssv", (interface, name, (kind, value)))
        elif action < 0.8:
            # Sessions opened and closed at random, some with bad dh keys; connections dropped.
            connection = self.connection()
            choice = rng.random()
            if choice < 0.35:
                self.open_session(connection, dh=rng.random() < 0.5)
            elif choice < 0.55:
                key = rng.choice([b"", b"\x00", b"\x01", b"\xff" * 128, rng.randbytes(rng.choice([127, 128, 129, 2048]))])
                self.call(SERVICE_PATH, SERVICE, "OpenSession", "sv",
                          (rng.choice([DH, "plain", self.string()]), rng.choice([("ay", key), ("s", self.string()), ("u", 7)])))
            elif choice < 0.8:
                self.call(self.session_path(), SESSION, "Close", "", (), connection)
            elif choice < 0.9 and len(self.connections) > 1:
                self.drop_connection()
            else:
                self.call(SERVICE_PATH, SERVICE, "GetSecrets", "aoo",
                          ([self.item_path() for _ in range(self.count(0))], self.session_path()), connection)
        else:
            self.store_and_read_back()

    def arguments(self, member, signature):
        """Random arguments of `signature`, shaped by what the member expects."""
        rng = self.rng
        if member == "CreateItem":
            properties = {}
            for _ in range(rng.randint(0, 3)):
                name = rng.choice(["org.freedesktop.Secret.Item.Label", "org.freedesktop.Secret.Item.Attributes",
                                   "org.freedesktop.Secret.Item.Other", self.string()])
                kind = rng.choice(["s", "a{ss}", self.signature()])
                properties[name] = (kind, self.attributes() if kind == "a{ss}" else self.value(kind))
            # Secrets of up to 64 KiB, or just over the 1 MiB bound: items with large secrets
            # come only from store_and_read_back, whose attributes keep them few.
            value = self.secret_bytes()[:SMALL_SECRET] if rng.random() < 0.7 else rng.randbytes(self.spend(SECRET_MAX + 1))
            secret = (self.session_path(), self.blob() if rng.random() < 0.3 else b"", value, self.string())
            return (properties, secret, rng.random() < 0.5)
        if member == "SetSecret":
            return ((self.session_path(), b"" if rng.random() < 0.5 else self.blob(), self.secret_bytes()[:SMALL_SECRET],
                     "text/plain"),)
        if signature == "a{ss}":
            return (self.attributes(),)
        if member in ("Unlock", "Lock"):
            return ([self.path() for _ in range(self.count(0))],)
        if member == "GetSecrets":
            return ([self.item_path() for _ in range(self.count(0))], self.session_path())
        return tuple(self.value(kind) for kind in self.split(signature))


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise Failure("the provider has no VmRSS")


def check_owner(connection, process):
    """Fails unless the provider started here owns org.freedesktop.secrets: on a bus where
    someone else does, the fuzzer would test the wrong program."""
    reply = connection.send_and_get_reply(
        new_method_call(message_bus, "GetConnectionUnixProcessID", "s", (BUS_NAME,)), timeout=30)
    if reply.header.message_type == MessageType.error or reply.body[0] != process.pid:
        raise Failure(f"{BUS_NAME} is not owned by the provider started here (pid {process.pid}): "
                      "run on a private bus with no other Secret Service")


def first_line(process, seconds):
    """The provider's first line of output (it says it owns the name), within `seconds`."""
    output = b""
    deadline = time.monotonic() + seconds
    while b"\n" not in output:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Failure(f"the provider printed no line in {seconds} s")
        ready, _, _ = select.select([process.stdout], [], [], remaining)
        if ready:
            chunk = os.read(process.stdout.fileno(), 4096)
            if not chunk:
                raise Failure(f"the provider ended before serving: status {process.wait()}")
            output += chunk
    return output.decode(errors="replace").splitlines()[0]


def ended(process):
    """How the provider ended, in words, or None while it runs."""
    status = process.poll()
    if status is None:
        return None
    if status < 0:
        return f"killed by signal {signal.Signals(-status).name} (a crash or trap; a core may have been dumped)"
    return f"exit status {status}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--provider", required=True, help="the keychain-secret-service executable")
    budget = parser.add_mutually_exclusive_group(required=True)
    budget.add_argument("--calls", type=int, help="stop after about this many calls")
    budget.add_argument("--seconds", type=float, help="stop after this many seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30, help="seconds a call may take before it counts as a hang")
    parser.add_argument("--rss-bound-mib", type=float, default=64, help="VmRSS growth allowed after the warm-up")
    arguments = parser.parse_args()
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        print("verdict: FAIL DBUS_SESSION_BUS_ADDRESS is not set: run this on a private bus "
              "(Scripts/fuzz-secret-service makes one)")
        return 1

    folder = tempfile.mkdtemp(prefix="keychain-fuzz-ss.")
    errors_path = os.path.join(folder, "provider.err")
    environment = dict(os.environ, XDG_DATA_HOME=os.path.join(folder, "data"))
    environment.pop("KEYCHAIN_ACCESS_GROUPS", None)
    rng = random.Random(arguments.seed)
    fuzzer = Fuzzer(rng, arguments.timeout)
    process = None
    verdict = None
    try:
        with open(errors_path, "wb") as errors:
            process = subprocess.Popen([arguments.provider], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=errors, env=environment)
        first_line(process, 60)
        with open_dbus_connection(bus="SESSION") as connection:
            check_owner(connection, process)
        baseline = start_rss = resident_mib(process.pid)
        started = time.monotonic()
        warmed = False

        def progress():
            if arguments.calls is not None:
                return fuzzer.calls / arguments.calls
            return (time.monotonic() - started) / arguments.seconds

        while progress() < 1:
            fuzzer.step()
            if ended(process):
                raise Failure(f"the provider ended during the run: {ended(process)}")
            if not warmed and progress() >= 0.25:
                baseline, warmed = resident_mib(process.pid), True
        elapsed = time.monotonic() - started
        if ended(process):
            raise Failure(f"the provider ended during the run: {ended(process)}")
        final_rss = resident_mib(process.pid)
        # A normal client on a fresh connection, after everything.
        for connection in list(fuzzer.connections):
            fuzzer.drop_connection()
        check = open_dbus_connection(bus="SESSION")
        fuzzer.sessions[check] = []
        # The run may have locked the collection (Lock is one of its calls): a normal client
        # unlocks it first, which for this keychain without a password needs no prompt.
        ok, body = fuzzer.call(SERVICE_PATH, SERVICE, "Unlock", "ao", ([COLLECTION_PATH],), check)
        if not ok or body != ([COLLECTION_PATH], "/"):
            raise Failure(f"a normal Unlock of the collection after the run failed: {body}")
        fuzzer.store_and_read_back(check, strict=True)
        check_owner(check, process)
        ok, body = fuzzer.call(SERVICE_PATH, SERVICE, "SearchItems", "a{ss}", ({"service": "fuzz-check"},), check)
        if not ok:
            raise Failure(f"a normal SearchItems after the run failed: {body}")
        check.close()
        if final_rss - baseline > arguments.rss_bound_mib:
            raise Failure(f"VmRSS grew from {baseline:.1f} to {final_rss:.1f} MiB after the warm-up "
                          f"(bound +{arguments.rss_bound_mib:g} MiB)")
        summary = ", ".join(f"{name.split('.')[-1]} {count}" for name, count in fuzzer.replies.most_common())
        print(f"answers: {summary}")
        print(f"VmRSS: {start_rss:.1f} MiB at start, {baseline:.1f} after the warm-up, {final_rss:.1f} at the end")
        verdict = (f"{fuzzer.calls} calls in {elapsed:.0f} s (seed {arguments.seed}): the provider is up and answers, "
                   f"no crash, no call unanswered in {arguments.timeout:g} s, every secret read back, VmRSS "
                   f"{baseline:.1f} -> {final_rss:.1f} MiB after the warm-up (bound +{arguments.rss_bound_mib:g} MiB)")
    except Failure as failure:
        if process is not None and ended(process):
            failure = f"{failure}; the provider ended: {ended(process)}"
        # What the provider said last, with the fuzzer's secrets masked, then the verdict.
        try:
            with open(errors_path, "rb") as errors:
                tail = errors.read()[-2000:].decode(errors="replace")
        except OSError:
            tail = ""
        for marker in fuzzer.markers:
            tail = tail.replace(marker, "<secret>")
        if tail:
            print("the provider's standard error ends:", tail, sep="\n")
        print(f"verdict: FAIL {failure} (seed {arguments.seed}, after {fuzzer.calls} calls)")
        return 1
    finally:
        if process is not None and process.poll() is None:
            process.terminate()
            process.wait()
        for connection in fuzzer.connections:
            connection.close()
        try:
            with open(errors_path, "rb") as errors:
                stderr = errors.read()
        except OSError:
            stderr = b""
        shutil.rmtree(folder, ignore_errors=True)
    leaked = [marker for marker in fuzzer.markers if marker.encode() in stderr]
    if leaked:
        print(f"verdict: FAIL {len(leaked)} secrets appear in the provider's standard error (seed {arguments.seed})")
        return 1
    print(f"verdict: PASS {verdict}, none of its {len(fuzzer.markers)} secrets in its standard error "
          f"({len(stderr)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
