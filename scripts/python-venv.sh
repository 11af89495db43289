#!/usr/bin/env bash
# Create (or reuse) the Python venv used by the referee scripts in scripts/referee/.
# Idempotent: a second run with the pinned library already installed does nothing.
# Override the venv location with PURSER_VENV (default: <repo>/.venv).
set -euo pipefail

APPLE_LIB_VERSION="3.1.2"   # app-store-server-library (Apple's official Python library)

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${PURSER_VENV:-$repo_root/.venv}"
py="$venv/bin/python"

command -v python3 >/dev/null || { echo "python-venv.sh: python3 not found" >&2; exit 1; }

installed_version() {
  # Prints the installed version of the library, or nothing.
  "$py" - <<'PY' 2>/dev/null || true
from importlib.metadata import version, PackageNotFoundError
try:
    print(version("app-store-server-library"))
except PackageNotFoundError:
    pass
PY
}

created=""
if [ ! -x "$py" ]; then
  python3 -m venv "$venv" || { echo "python-venv.sh: could not create venv at $venv (install python3-venv?)" >&2; exit 1; }
  created="created venv, "
fi

if [ "$(installed_version)" = "$APPLE_LIB_VERSION" ] && "$py" -c 'import cryptography, appstoreserverlibrary' 2>/dev/null; then
  echo "python-venv.sh: ${created}venv $venv already has app-store-server-library==$APPLE_LIB_VERSION; nothing to do"
  exit 0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! "$py" -m pip install --disable-pip-version-check --quiet "app-store-server-library==$APPLE_LIB_VERSION" >"$log" 2>&1; then
  cat "$log" >&2
  echo "python-venv.sh: pip install of app-store-server-library==$APPLE_LIB_VERSION failed" >&2
  exit 1
fi
# cryptography is a dependency of the library; install it explicitly only if it was not pulled in.
if ! "$py" -c 'import cryptography' 2>/dev/null; then
  "$py" -m pip install --disable-pip-version-check --quiet cryptography >"$log" 2>&1 || { cat "$log" >&2; echo "python-venv.sh: pip install cryptography failed" >&2; exit 1; }
fi
"$py" -c 'import cryptography, appstoreserverlibrary' || { echo "python-venv.sh: import check failed" >&2; exit 1; }
echo "python-venv.sh: ${created}installed app-store-server-library==$APPLE_LIB_VERSION into $venv"
