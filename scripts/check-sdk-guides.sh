#!/usr/bin/env bash
# The SDK's guides as an app developer follows them (issue 40): builds an app package from the manifest sample of
# Purser.md, its sources and tests the other portable samples of the DocC articles (scripts/guide-samples.py), with the
# repository checked out under a folder that is not called `purser` (so `package: "purser"` works only if the
# manifest's `name:` does what the page says) and `MemberImportVisibility` on (so `import Purser` must bring every type
# the samples use). Then runs the app's tests, the simulator sample of TestingWithTheSimulator.md among them, against a
# `purser serve --config examples/demo.json` it starts. The Apple-only samples are compiled by
# scripts/check-storekit-interface.sh. Exits non-zero on any failure; about two minutes.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/scripts/serve-port.sh"
work="$(mktemp -d)"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

app="$work/app"
python3 "$repo/scripts/guide-samples.py" app "$app"
ln -s "$repo" "$work/checkout-named-otherwise"
grep -q 'path: "../purser"' "$app/Package.swift" || {
  echo "check-sdk-guides: the manifest sample no longer depends on ../purser; update this check" >&2
  exit 1
}
sed -i "s|path: \"../purser\"|path: \"$work/checkout-named-otherwise\"|" "$app/Package.swift"
# The app's own code, as the guides' readers write it: the wire types' members through `import Purser` alone.
mkdir -p "$app/Sources/MyGame"
cat >"$app/Sources/MyGame/Wallet.swift" <<'SWIFT'
import Purser

/// The gold a delivery granted and the balances a wallet holds: PurserCore's members, reached through `Purser`.
func gold(in delivery: Delivery, wallet: WalletResponse) -> (granted: Int64, balance: Int64) {
    (delivery.grants?.amounts["gold"] ?? 0, wallet.balances["gold", default: 0])
}
SWIFT

# That `traits: []` resolves no package at all is scripts/check-sdk-dependencies.sh's to hold.
echo "== the guides' app: build, with MemberImportVisibility"
(cd "$app" && swift build --build-tests >"$work/build.log" 2>&1) || { cat "$work/build.log"; exit 1; }

echo "== the guides' tests against purser serve --config examples/demo.json"
purser="${PURSER_BIN:-}"
if [ -z "$purser" ]; then  # built as scripts/test.sh builds it, so nothing is rebuilt
  (cd "$repo" && PURSER_WARNINGS_AS_ERRORS=1 swift build --product purser >"$work/purser-build.log" 2>&1) \
    || { cat "$work/purser-build.log"; exit 1; }
  purser="$(cd "$repo" && swift build --show-bin-path)/purser"
fi
"$purser" serve --config "$repo/examples/demo.json" --port 0 --data-dir "$work/data" >"$work/serve.log" 2>&1 &
serve_pid=$!
port="$(wait_for_serve_port "$work/serve.log" "$serve_pid")" || { cat "$work/serve.log"; exit 1; }
(cd "$app" && PURSER_URL="http://127.0.0.1:$port" swift test --skip-build >"$work/test.log" 2>&1) || {
  cat "$work/test.log"
  exit 1
}
ran="$(sed -n 's/.*Test run with \([0-9][0-9]*\) tests\{0,1\} .* passed.*/\1/p' "$work/test.log" | tail -1)"
if [ -z "$ran" ] || [ "$ran" -lt 1 ]; then
  cat "$work/test.log"
  echo "check-sdk-guides: the guides' tests did not run" >&2
  exit 1
fi
grep -E "^(✔|✘) Test " "$work/test.log" | sed 's/^/  /'
echo "check-sdk-guides: ok (the guides' app built; $ran guide test(s) passed against a live purser serve)"
