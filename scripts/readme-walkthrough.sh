#!/usr/bin/env bash
# The README's "A five-minute tour", run exactly as written against a fresh `purser serve --config
# examples/demo.json` (on a free port and in a scratch copy of examples/, so ./data is not touched). Each `# →` line
# of the README must match the line the commands printed: every "key":value pair it shows without `…` must be in
# that line. Exits 1 on the first mismatch, printing both.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/serve-port.sh"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
purser="${PURSER_BIN:-$repo/.build/debug/purser}"
[ -x "$purser" ] || { echo "readme-walkthrough.sh: build first (swift build), or set PURSER_BIN" >&2; exit 1; }

work="$(mktemp -d)"
serve_pid=""
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

cp -r "$repo/examples" "$work/examples"
"$purser" serve --config "$work/examples/demo.json" --port 0 >"$work/serve.log" 2>&1 &
serve_pid=$!
port="$(wait_for_serve_port "$work/serve.log" "$serve_pid")" || { cat "$work/serve.log"; exit 1; }

# The first ```sh block after the heading, with the quick start's port replaced by the one this server chose.
python3 - "$repo/README.md" "$port" >"$work/walkthrough.sh" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index("## A five-minute tour"):]
block = section[section.index("```sh\n") + 6:]
print(block[:block.index("```\n")].replace("localhost:8080", f"127.0.0.1:{sys.argv[2]}"))
PY
(cd "$work" && bash -euo pipefail "$work/walkthrough.sh") >"$work/printed.txt"

python3 - "$work/walkthrough.sh" "$work/printed.txt" <<'PY'
import re, sys
expected = [line.split("# → ", 1)[1] for line in open(sys.argv[1], encoding="utf-8") if line.startswith("# → ")]
printed = [line.strip() for line in open(sys.argv[2], encoding="utf-8") if line.strip()]
if len(printed) != len(expected):
    sys.exit(f"readme-walkthrough: the README shows {len(expected)} answers, the commands printed {len(printed)}:\n"
             + "\n".join(printed))
pair = re.compile(r'"\w+":(?:"[^"]*"|true|false|-?\d+|\{[^{}]*\})')
for shown, got in zip(expected, printed):
    for part in pair.findall(shown):
        if "…" not in part and part not in got:
            sys.exit(f"readme-walkthrough: the README shows {part}\n  in:  {shown.strip()}\n  got: {got}")
print(f"readme-walkthrough: {len(expected)} answers as the README shows them")
PY
