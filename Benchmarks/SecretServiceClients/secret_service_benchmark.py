#!/usr/bin/python3
"""Benchmark client for a Secret Service provider (ours or GNOME Keyring), run by
Scripts/benchmark-secret-service on a private session bus.

    secret_service_benchmark.py [--sample K] [--seconds T] [--lookups N] SIZE...

Python's secretstorage (Debian's python3-secretstorage, over jeepney), one process making
every call, in one dh-ietf1024-sha256-aes128-cbc-pkcs7 session as secretstorage opens it.
For each SIZE in ascending order it stores items up to SIZE, then measures:

  stores    the rate of SIZE / 10 more stores once the collection holds SIZE items (they
            are deleted again before the other measurements)
  lookups   SearchItems by service and account, then GetSecret of the item found (what
            `secret-tool lookup` does), on random items
  searches  SearchItems by an attribute that is neither service nor account (`id`), on
            random items
  secret-tool   the wall time of a fresh `secret-tool lookup` process (its own connection
            and session), median of N runs
  VmRSS     of the process that owns org.freedesktop.secrets, after the measurements

Lookups and searches run min(SIZE, K) operations or T seconds, whichever ends first.
Prints one line per size on stdout: "SIZE stores/s lookups/s searches/s secret-tool-ms
filled-rss-mib rss-mib command": VmRSS once filled, and at the end (the provider's
command name last); progress goes to stderr. Secrets are never printed.

With --compare, the client speaks to two providers at once, ours on the bus at
$OURS_DBUS_ADDRESS and GNOME Keyring on the session bus, and alternates them round by round
(5 rounds per measure, ours first in even rounds, GNOME Keyring first in odd ones), so that a
moment when the shared machine is slow touches both alike. Each round makes a fifth of the
stores, lookups and searches (a fifth of the seconds at most) and of the secret-tool runs.
It prints, per size, "ours SIZE ..." and "gnome SIZE ..." lines as above (each rate the median
of its rounds), then one "ratio SIZE MEASURE MIN MEDIAN MAX" line per measure (stores,
lookups, searches, secret-tool) with the per-round ratio ours / GNOME Keyring in operations
per second (for secret-tool, GNOME Keyring's time over ours).
"""

import os

import argparse
import random
import statistics
import subprocess
import sys
import time

import secretstorage
from jeepney import new_method_call
from jeepney.bus_messages import message_bus

SERVICE = "bench.example.com"
SECRET = b"Z" * 32


def attributes(index):
    return {"service": SERVICE, "account": f"user-{index}@example.com", "id": str(index)}


def provider(connection):
    """The command (as /proc names it) and VmRSS in MiB of the owner of
    org.freedesktop.secrets, whose process id the bus tells: the command shows that the
    provider measured is the one meant, not one the bus started in its place."""
    reply = connection.send_and_get_reply(
        new_method_call(message_bus, "GetConnectionUnixProcessID", "s", ("org.freedesktop.secrets",)))
    pid = reply.body[0]
    with open(f"/proc/{pid}/comm") as comm:
        command = comm.read().strip().replace(" ", "_")
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return command, int(line.split()[1]) / 1024
    return command, 0.0


def timed(count, seconds, operation):
    """Runs `operation(i)` up to `count` times or for `seconds`; operations per second."""
    started = time.monotonic()
    done = 0
    while done < count and time.monotonic() - started < seconds:
        operation(done)
        done += 1
    return done / (time.monotonic() - started)


ROUNDS = 5


def open_collection():
    connection = secretstorage.dbus_init()
    collection = secretstorage.get_default_collection(connection)
    if collection.is_locked():
        collection.unlock()
    return connection, collection


def secret_tool_lookup(index, bus_address):
    """The wall time of one fresh `secret-tool lookup` on the bus at `bus_address`."""
    started = time.monotonic()
    result = subprocess.run(["secret-tool", "lookup", "service", SERVICE, "account", f"user-{index}@example.com"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60,
                            env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus_address))
    elapsed = time.monotonic() - started
    if result.returncode != 0 or result.stdout != SECRET:
        raise SystemExit(f"secret-tool lookup failed for item {index}: status {result.returncode}")
    return elapsed


def compare(arguments):
    """Ours and GNOME Keyring, alternating round by round (see the module's doc)."""
    gnome_address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
    ours_address = os.environ["OURS_DBUS_ADDRESS"]
    providers = {}
    for name, address in (("ours", ours_address), ("gnome", gnome_address)):
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
        providers[name] = open_collection() + (address,)
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = gnome_address
    expected = {"ours": "keychain-secret", "gnome": "gnome-keyring-d"}
    rng = random.Random(1)
    stored = 0
    for size in sorted(arguments.sizes):
        sample = min(size, arguments.sample)
        for name, (connection, collection, _) in providers.items():
            print(f"{size} items: {name}: storing {size - stored}", file=sys.stderr)
            for index in range(stored, size):
                collection.create_item(f"Item {index}", attributes(index), SECRET)
        stored = size
        rates = {name: {"stores": [], "lookups": [], "searches": [], "secret-tool": []} for name in providers}
        filled_rss = {}

        def rounds(measure, run):
            """Runs `run(name, round)` for both providers in each round, alternating who goes first."""
            print(f"{size} items: {measure}, {ROUNDS} alternating rounds", file=sys.stderr)
            for round_number in range(ROUNDS):
                order = ["ours", "gnome"] if round_number % 2 == 0 else ["gnome", "ours"]
                for name in order:
                    rates[name][measure].append(run(name, round_number))

        def stores(name, round_number):
            _, collection, _ = providers[name]
            first = stored + round_number * max(1, size // 10 // ROUNDS)
            count = max(1, size // 10 // ROUNDS)
            started = time.monotonic()
            extra = [collection.create_item(f"Item {first + i}", attributes(first + i), SECRET) for i in range(count)]
            rate = count / (time.monotonic() - started)
            for item in extra:
                item.delete()
            return rate

        rounds("stores", stores)
        for name, (connection, _, _) in providers.items():
            filled_rss[name] = provider(connection)[1]

        def lookup_round(name, _):
            _, collection, _ = providers[name]

            def lookup(_):
                [item] = collection.search_items({"service": SERVICE, "account": f"user-{rng.randrange(size)}@example.com"})
                if item.get_secret() != SECRET:
                    raise SystemExit("a lookup returned a wrong secret")
            return timed(max(1, sample // ROUNDS), arguments.seconds / ROUNDS, lookup)

        def search_round(name, _):
            _, collection, _ = providers[name]

            def search(_):
                index = rng.randrange(size)
                found = list(collection.search_items({"id": str(index)}))
                if len(found) != 1:
                    raise SystemExit(f"a search by id {index} found {len(found)} items")
            return timed(max(1, sample // ROUNDS), arguments.seconds / ROUNDS, search)

        def secret_tool_round(name, _):
            # Milliseconds, the median of this round's runs; turned into a rate for the ratio.
            runs = [secret_tool_lookup(rng.randrange(size), providers[name][2]) for _ in range(max(1, arguments.lookups // ROUNDS))]
            return statistics.median(runs) * 1000

        for name, (_, collection, _) in providers.items():  # warm, untimed
            [item] = collection.search_items({"service": SERVICE, "account": "user-0@example.com"})
            item.get_secret()
            list(collection.search_items({"id": "0"}))
        rounds("lookups", lookup_round)
        rounds("searches", search_round)
        rounds("secret-tool", secret_tool_round)
        for name, (connection, _, _) in providers.items():
            command, rss = provider(connection)
            if command != expected[name]:
                raise SystemExit(f"{name} was served by {command}, not {expected[name]}")
            r = rates[name]
            print(f"{name} {size} {statistics.median(r['stores']):.1f} {statistics.median(r['lookups']):.1f} "
                  f"{statistics.median(r['searches']):.2f} {statistics.median(r['secret-tool']):.1f} "
                  f"{filled_rss[name]:.1f} {rss:.1f} {command}", flush=True)
        for measure in ("stores", "lookups", "searches", "secret-tool"):
            ours, gnome = rates["ours"][measure], rates["gnome"][measure]
            if measure == "secret-tool":
                ratios = sorted(g / o for o, g in zip(ours, gnome))
            else:
                ratios = sorted(o / g for o, g in zip(ours, gnome))
            print(f"ratio {size} {measure} {ratios[0]:.3f} {statistics.median(ratios):.3f} {ratios[-1]:.3f}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--lookups", type=int, default=21, help="fresh secret-tool lookups per size")
    parser.add_argument("--compare", action="store_true",
                        help="ours (at $OURS_DBUS_ADDRESS) and GNOME Keyring (the session bus), alternating")
    parser.add_argument("sizes", type=int, nargs="+")
    arguments = parser.parse_args()
    if arguments.compare:
        compare(arguments)
        return
    connection = secretstorage.dbus_init()
    collection = secretstorage.get_default_collection(connection)
    if collection.is_locked():
        collection.unlock()
    rng = random.Random(1)
    stored = 0
    for size in sorted(arguments.sizes):
        sample = min(size, arguments.sample)
        print(f"{size} items: storing {size - stored}, then {size // 10} timed", file=sys.stderr)
        while stored < size:
            collection.create_item(f"Item {stored}", attributes(stored), SECRET)
            stored += 1
        # Stores at SIZE items: a tenth of SIZE more, timed, then removed again (unless
        # they are the next size's), so that every size is measured on SIZE items.
        started = time.monotonic()
        extra = [collection.create_item(f"Item {stored + i}", attributes(stored + i), SECRET) for i in range(size // 10)]
        stores = len(extra) / (time.monotonic() - started)
        for item in extra:
            item.delete()
        _, filled_rss = provider(connection)

        def lookup(_):
            [item] = collection.search_items({"service": SERVICE, "account": f"user-{rng.randrange(size)}@example.com"})
            if item.get_secret() != SECRET:
                raise SystemExit("a lookup returned a wrong secret")

        def search(_):
            index = rng.randrange(size)
            found = list(collection.search_items({"id": str(index)}))
            if len(found) != 1:
                raise SystemExit(f"a search by id {index} found {len(found)} items")

        # Once untimed: the session and caches are warm before the clock starts.
        lookup(0)
        search(0)
        print(f"{size} items: lookups", file=sys.stderr)
        lookups = timed(sample, arguments.seconds, lookup)
        print(f"{size} items: searches", file=sys.stderr)
        searches = timed(sample, arguments.seconds, search)
        print(f"{size} items: secret-tool lookup x {arguments.lookups}", file=sys.stderr)
        times = []
        for _ in range(arguments.lookups):
            index = rng.randrange(size)
            started = time.monotonic()
            result = subprocess.run(["secret-tool", "lookup", "service", SERVICE, "account", f"user-{index}@example.com"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
            times.append(time.monotonic() - started)
            if result.returncode != 0 or result.stdout != SECRET:
                raise SystemExit(f"secret-tool lookup failed for item {index}: status {result.returncode}")
        command, rss = provider(connection)
        print(f"{size} {stores:.1f} {lookups:.1f} {searches:.2f} {statistics.median(times) * 1000:.1f} {filled_rss:.1f} "
              f"{rss:.1f} {command}", flush=True)


if __name__ == "__main__":
    main()
