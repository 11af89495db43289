#!/usr/bin/env bash
# Create (or reuse) the project's Python venv: Apple's app-store-server-library and Standard Webhooks' standardwebhooks
# for the referee scripts in scripts/referee/, and schemathesis for scripts/schemathesis.sh.
# Idempotent and offline once done: a run that finds every pinned package installed (and importable) asks PyPI for
# nothing; otherwise it installs only the packages that are missing or at another version.
# Override the venv location with PURSER_VENV (default: <repo>/.venv).
set -euo pipefail

# name==version and the module that must import, one per line.
PINNED=(
  "app-store-server-library==3.1.2 appstoreserverlibrary"   # Apple's official Python library
  "schemathesis==4.32.5 schemathesis"                       # property-based testing against openapi.yaml
  "standardwebhooks==1.1.0 standardwebhooks"                # Standard Webhooks' own library: the webhook referee
  "prometheus-client==0.26.0 prometheus_client"             # Prometheus' Python client: the metrics referee
  "selenium==4.50.0 selenium"                                # drives Chromium through the support console
  "pyyaml==6.0.4 yaml"                                       # reads the alert rules in scripts/alert-guide.py and co.
  "opentelemetry-proto==1.45.2 opentelemetry.proto.collector.trace.v1.trace_service_pb2"  # decodes our OTLP spans
)

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${PURSER_VENV:-$repo_root/.venv}"
py="$venv/bin/python"

command -v python3 >/dev/null || { echo "python-venv.sh: python3 not found" >&2; exit 1; }

installed_version() {
  # Prints the installed version of the distribution $1, or nothing.
  "$py" - "$1" <<'PY' 2>/dev/null || true
import sys
from importlib.metadata import version, PackageNotFoundError
try:
    print(version(sys.argv[1]))
except PackageNotFoundError:
    pass
PY
}

created=""
if [ ! -x "$py" ]; then
  python3 -m venv "$venv" || { echo "python-venv.sh: could not create venv at $venv (install python3-venv?)" >&2; exit 1; }
  created="created venv, "
fi

missing=()
modules=(cryptography)
for entry in "${PINNED[@]}"; do
  requirement="${entry%% *}"
  module="${entry##* }"
  modules+=("$module")
  name="${requirement%%==*}"
  wanted="${requirement##*==}"
  if [ "$(installed_version "$name")" != "$wanted" ] || ! "$py" -c "import $module" 2>/dev/null; then
    missing+=("$requirement")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "python-venv.sh: ${created}venv $venv already has ${PINNED[*]%% *}; nothing to do"
  exit 0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! "$py" -m pip install --disable-pip-version-check --quiet "${missing[@]}" >"$log" 2>&1; then
  cat "$log" >&2
  echo "python-venv.sh: pip install of ${missing[*]} failed" >&2
  exit 1
fi
# cryptography is a dependency of Apple's library; install it explicitly only if it was not pulled in.
if ! "$py" -c 'import cryptography' 2>/dev/null; then
  "$py" -m pip install --disable-pip-version-check --quiet cryptography >"$log" 2>&1 \
    || { cat "$log" >&2; echo "python-venv.sh: pip install cryptography failed" >&2; exit 1; }
fi
for module in "${modules[@]}"; do
  "$py" -c "import $module" || { echo "python-venv.sh: import $module failed" >&2; exit 1; }
done
echo "python-venv.sh: ${created}installed ${missing[*]} into $venv"
