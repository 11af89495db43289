#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer) of everything Purser parses from outside: the receipt reader (BER/PKCS #7),
# compact JWS with its x5c chain, base64 / base64url, the JSON bodies of the routes, Apple's notifications.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     each target for SECONDS (default 30); targets: receipt jws base64 bodies
#                                             notification money (default: all). Hours by hand: scripts/fuzz.sh 14400 jws
#
# How it builds: PurserCore and AppStoreVerification are compiled from their sources with
# `swiftc -sanitize=fuzzer,address` (so libFuzzer sees their coverage and ASan their memory), against the package's
# own debug build for everything else (the swift-certificates, swift-asn1, swift-crypto, jwt-kit modules and object
# files, with the flags SwiftPM used): run `swift build` first. Each Fuzz/*Fuzz.swift becomes .build/fuzz/bin/fuzz-NAME.
#
# The seeds come from the App Store simulator (`purser appstore-sim`, scripts/fuzz/corpus.py), never third-party
# vectors. What a run learns stays in .build/fuzz/corpus/NAME and seeds the next run. A crash saves its input under
# .build/fuzz/artifacts/ and fails the script: turn it into a regression test in the target's normal test suite.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
seconds="${1:-30}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(receipt jws base64 bodies notification money)

bin="$(swift build --show-bin-path)"
purser="${PURSER_BIN:-$bin/purser}"
manifest="$repo/.build/debug.yaml"
link_list="$bin/purser.product/Objects.LinkFileList"
for needed in "$purser" "$manifest" "$link_list"; do
  [ -e "$needed" ] || { echo "fuzz.sh: $needed is missing: run swift build first" >&2; exit 1; }
done
out="$repo/.build/fuzz"
mkdir -p "$out/modules" "$out/bin" "$out/artifacts" "$out/corpus"

# 1. Build. The include and module-map flags SwiftPM used for AppStoreVerification; the object files of every
# third-party target the purser binary links (not Purser's own, which are compiled here instead).
mapfile -t imports < <(python3 - "$manifest" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
for match in re.finditer(r'args: (\[[^\n]*\])', text):
    args = json.loads(match.group(1))
    if "-module-name" in args and args[args.index("-module-name") + 1] == "AppStoreVerification" and "-c" in args:
        index = 0
        while index < len(args):
            if args[index] in ("-I", "-Xcc", "-module-cache-path"):
                print(args[index]); print(args[index + 1]); index += 2
            else:
                index += 1
        break
PY
)
own_targets="$(swift package describe --type json | python3 -c '
import json, sys
print("|".join(t["name"] for t in json.load(sys.stdin)["targets"]))')"
grep -vE "/(${own_targets})\.build/" "$link_list" >"$out/dependency-objects"

flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature MemberImportVisibility -O -g -I "$out/modules" "${imports[@]}")
module() {  # module NAME SOURCE_DIR [DEPENDENCY_DIR]: an instrumented static library and its module, kept while
            # its sources (and its dependency's) are older than it
  if [ -e "$out/modules/lib$1.a" ] && [ -z "$(find "${@:2}" -name '*.swift' -newer "$out/modules/lib$1.a")" ]; then
    return
  fi
  echo "fuzz.sh: compiling $1 with -sanitize=fuzzer,address"
  # shellcheck disable=SC2046
  swiftc "${flags[@]}" -enable-testing -module-name "$1" -emit-module -emit-module-path "$out/modules/$1.swiftmodule" \
    -emit-library -static -o "$out/modules/lib$1.a" $(find "$2" -name '*.swift' | sort)
}
module PurserCore Sources/PurserCore
module AppStoreVerification Sources/AppStoreVerification Sources/PurserCore
for target in "${targets[@]}"; do
  case "$target" in
    receipt) name=Receipt ;; jws) name=JWS ;; base64) name=Base64 ;; bodies) name=Bodies ;;
    notification) name=Notification ;; money) name=Money ;; *) echo "fuzz.sh: no target $target" >&2; exit 2 ;;
  esac
  extra=()
  [ "$target" = bodies ] && extra=(Sources/PurserServer/Services/String+Blank.swift)
  echo "fuzz.sh: linking fuzz-$target"
  swiftc "${flags[@]}" -module-name "${name}Fuzz" Fuzz/FuzzSupport.swift "Fuzz/${name}Fuzz.swift" "${extra[@]}" \
    -L "$out/modules" -lAppStoreVerification -lPurserCore "@$out/dependency-objects" -lstdc++ -lm -lz \
    -o "$out/bin/fuzz-$target"
done

# 2. Seeds from the simulator.
seeds="$out/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
sim_pid=""
cleanup() { if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$purser" appstore-sim --port "$port" --data-dir "$seeds/sim" --bundle-id com.example.purser.demo \
  >"$seeds/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 1 150); do
  curl -sf "http://127.0.0.1:$port/simulator/v1/root-certificate" -o /dev/null && break
  sleep 0.2
done
python3 "$repo/scripts/fuzz/corpus.py" "http://127.0.0.1:$port" "$seeds"
cleanup
sim_pid=""

# 3. Run each target for a bounded time.
failed=0
summary=()
for target in "${targets[@]}"; do
  mkdir -p "$out/corpus/$target"
  log="$out/fuzz-$target.log"
  echo "fuzz.sh: fuzz-$target for ${seconds}s"
  status=0
  PURSER_FUZZ_ROOT="$seeds/root.der" ASAN_OPTIONS="detect_leaks=0" "$out/bin/fuzz-$target" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/$target-" "$out/corpus/$target" "$seeds/$target" >"$log" 2>&1 || status=$?
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  took="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
  coverage="$(grep -oE 'cov: [0-9]+' "$log" | tail -1)"
  line="fuzz-$target: ${runs:-?} runs in ${took:-?}s, ${rate:-?} exec/s, ${coverage:-cov: ?}, exit $status"
  summary+=("$line")
  if [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    echo "fuzz.sh: FAIL $line"
    grep -E "ERROR|SUMMARY|Fatal error|property violated|Test unit written" "$log" | head -20 || tail -30 "$log"
  fi
done
printf 'fuzz.sh: %s\n' "${summary[@]}"
[ "$failed" -eq 0 ] || { echo "fuzz.sh: $failed target(s) found a crash; inputs in $out/artifacts"; exit 1; }
