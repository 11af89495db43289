#!/usr/bin/env python3
"""What a commit costs SQLite's page cache while a database is under 1 GiB: one-row commits with random keys, timed
with a warm large cache and with a small one, on the system's SQLite (the library the server links).

Usage: scripts/sqlite-cache-walk.py [DIRECTORY] [ROWS]
Builds DIRECTORY/cache-walk.sqlite (default: a temporary directory; ROWS rows, default 1,000,000, a table and an
index on a random key, under 1 GiB), then for each cache size reads every page once and times 5,000 transactions
of one insert each. B-tree balancing renumbers pages through the page number of the 1 GiB lock byte, and each
commit's truncation of the cache to the file's size then visits every cached page, so the commit costs more the
more pages the connection holds (the performance guide, "What grows with every purchase"). Prints SQLite's
version, the file's size and µs per commit for each cache size, alternating them twice.
"""
import os
import sqlite3
import sys
import tempfile
import time

CACHES_KIB = [262144, 2000]  # the server's writer cache (256 MiB), and SQLite's default (2 MiB)
COMMITS = 5000


def build(path, rows):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, k BLOB, v BLOB)")
    db.execute("CREATE INDEX t_k ON t(k)")
    db.execute("BEGIN")
    db.executemany("INSERT INTO t(k, v) VALUES (randomblob(16), randomblob(200))", [()] * rows)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def commit_cost(path, cache_kib):
    """µs per one-row commit with a warm cache of `cache_kib` KiB."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute(f"PRAGMA cache_size=-{cache_kib}")
    db.execute("SELECT count(*), sum(length(v)) FROM t").fetchone()
    db.execute("SELECT count(*) FROM t INDEXED BY t_k WHERE k > x'00'").fetchone()
    start = time.perf_counter()
    for _ in range(COMMITS):
        db.execute("BEGIN")
        db.execute("INSERT INTO t(k, v) VALUES (?, ?)", (os.urandom(16), b"x" * 200))
        db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed / COMMITS * 1e6


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="purser-cache-walk-")
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    path = os.path.join(directory, "cache-walk.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    build(path, rows)
    size = os.path.getsize(path)
    print(f"SQLite {sqlite3.sqlite_version}, {rows} rows, {size / 2**20:.0f} MiB (the walk needs under 1 GiB)")
    for _ in range(2):
        for cache in CACHES_KIB:
            print(f"cache {cache} KiB: {commit_cost(path, cache):.1f} µs per one-row commit")


if __name__ == "__main__":
    main()
