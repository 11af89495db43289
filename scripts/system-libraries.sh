#!/usr/bin/env bash
# The C libraries Purser's build links that Swift does not bring: the system's SQLite (the embedded ledger's
# synchronous layer, target CSQLite). Debian and Ubuntu: libsqlite3-dev, installed here when its header is missing.
# macOS has SQLite in the SDK. `scripts/test.sh` runs this first; run it once by hand before `swift run` on a new
# Debian machine that lacks the header.
set -euo pipefail

if [ "$(uname -s)" = "Linux" ] && [ ! -f /usr/include/sqlite3.h ]; then
  echo "system-libraries.sh: installing libsqlite3-dev (apt-get install libsqlite3-dev)" >&2
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libsqlite3-dev >&2
fi
