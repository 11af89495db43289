#!/usr/bin/env python3
"""Which B-trees a SQLite ledger's recent commits wrote: the pages of each commit in the write-ahead log, by table or
index.

Usage: scripts/wal-pages.py DIRECTORY
DIRECTORY holds a copy of a ledger taken while it was being written (`purser.sqlite` and `purser.sqlite-wal`, copied
in that order, e.g. from `purser bench submit`'s temporary directory during its measurement). The WAL holds the
frames written since its last checkpoint; each frame names its page, and the frame that ends a commit says so. The
pages are mapped to their B-tree with SQLite's `dbstat` table, read from a second copy so the first stays as taken.
The first and last commit found are left out (either may be cut short). Prints the commits read, the distinct pages
per commit, and each B-tree's pages per commit and share: what a settlement costs the disk, by what it writes (the
performance guide's "What a settlement writes").
"""
import collections
import os
import shutil
import struct
import subprocess
import sys
import tempfile

FRAME_HEADER = 24
WAL_HEADER = 32


def commits(wal):
    """The page numbers of each complete commit in the WAL's current generation (frames with the header's salts)."""
    _, _, page_size, _, salt1, salt2, _, _ = struct.unpack(">IIIIIIII", wal[:WAL_HEADER])
    found, current, offset = [], [], WAL_HEADER
    while offset + FRAME_HEADER + page_size <= len(wal):
        page, commit_size, s1, s2 = struct.unpack(">IIII", wal[offset : offset + 16])
        if (s1, s2) != (salt1, salt2):
            break
        current.append(page)
        if commit_size:
            found.append(current)
            current = []
        offset += FRAME_HEADER + page_size
    return found


def owners(directory):
    """Page number -> the table or index it belongs to, from `dbstat` on a copy of the ledger and its WAL."""
    with tempfile.TemporaryDirectory() as scratch:
        for name in ("purser.sqlite", "purser.sqlite-wal"):
            shutil.copy(os.path.join(directory, name), os.path.join(scratch, name))
        rows = subprocess.run(
            ["sqlite3", os.path.join(scratch, "purser.sqlite"), "SELECT pageno, name FROM dbstat"],
            check=True, capture_output=True, text=True).stdout
    return {int(page): name for page, name in (line.split("|", 1) for line in rows.splitlines() if "|" in line)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    with open(os.path.join(directory, "purser.sqlite-wal"), "rb") as file:
        found = commits(file.read())[1:-1]
    if not found:
        sys.exit("wal-pages: fewer than three commits in the WAL (a checkpoint just reset it): copy it again")
    owner = owners(directory)
    pages = collections.Counter()
    for commit in found:
        for page in set(commit):
            pages[owner.get(page, "(free or new)")] += 1
    total = sum(pages.values())
    print(f"{len(found)} commits, {total / len(found):.1f} distinct pages per commit")
    for name, count in pages.most_common():
        print(f"{count / len(found):7.2f}  {100 * count / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
