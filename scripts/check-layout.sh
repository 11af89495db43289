#!/usr/bin/env bash
# The layout rules of the repository that a script can hold, checked on every test run:
#   1. the server's services are constructed in one place only (PurserAssembly);
#   2. StoreKitShim (the client SDK's simulated StoreKit) depends on no HTTP server and no service lifecycle;
#   3. the services under PurserServer/Services speak the domain: they import no HTTP types;
#   4. PurserCore and AppStoreVerification import no NIO, no Hummingbird, no swift-log;
#   5. no source file under Sources/ has more than 300 lines;
#   6. PurserStoreKitSimulated is PurserStoreKit's sources and nothing else: one symbolic link per adapter file;
#   7. no Foundation `Process` starts a child: its run() can crash the parent on Linux (swift-corelibs-foundation#5472);
#      ChildProcess (swift-subprocess) does;
#   8. every public declaration of the SDK and PurserWebhooks has a doc comment;
#   9. the repository explains itself: no file points at a design document kept outside it, and README.md links the
#      Design article (the server's DocC catalog), which holds Purser's design.
# Prints each finding and exits 1 when there is any.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

failures=0
fail() { echo "check-layout: $*"; failures=$((failures + 1)); }

# 1. One assembly.
for type in SubmissionService NotificationService Reconciler PurserAssembly; do
  # Files that construct the type (a call, not a doc comment).
  constructing=""
  for file in $(grep -rlE "(^|[^A-Za-z.])${type}\(" Sources --include='*.swift'); do
    # Not `grep -q`: it would stop reading at the first match, and the writer's SIGPIPE would fail the pipeline.
    if grep -vE '^\s*///' "$file" | grep -E "(^|[^A-Za-z.])${type}\(" >/dev/null; then constructing+="$file "; fi
  done
  count="$(wc -w <<<"$constructing")"
  case "$type" in
    PurserAssembly) ;;  # built by each entry point; its parts are what must be built once
    *) [ "$count" -eq 1 ] || fail "$type is constructed in $count source files, not one: $constructing" ;;
  esac
done
grep -rq "PurserServerDependencies" Sources && fail "PurserServerDependencies is back; PurserAssembly builds the server"

# 2. StoreKitShim's dependency closure.
swift package describe --type json 2>/dev/null | python3 -c '
import json, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
seen, stack, products = set(), ["StoreKitShim"], set()
while stack:
    name = stack.pop()
    if name in seen: continue
    seen.add(name)
    stack += targets[name].get("target_dependencies") or []
    products |= set(targets[name].get("product_dependencies") or [])
bad = sorted(p for p in products if p.startswith(("Hummingbird", "ServiceLifecycle", "NIO", "AsyncHTTPClient")))
if bad:
    print("check-layout: StoreKitShim depends on " + ", ".join(bad) + " through " + ", ".join(sorted(seen)))
    sys.exit(1)
' || failures=$((failures + 1))

# 3. Services speak the domain.
for file in $(grep -rlE "^import (HTTPTypes|Hummingbird)" Sources/PurserServer/Services || true); do
  fail "$file imports HTTP types; services throw ServiceError and PurserServer/HTTP maps it"
done

# 4. The bottom layers stay free of NIO, Hummingbird and swift-log.
for file in $(grep -rlE "^import (NIO|Hummingbird|Logging)" Sources/PurserCore Sources/AppStoreVerification || true); do
  fail "$file imports NIO, Hummingbird or Logging (the bottom layers stay free of them)"
done

# 5. File length.
while read -r lines file; do
  [ "$file" = total ] && continue
  [ "$lines" -gt 300 ] && fail "$file has $lines lines (at most 300)"
done < <(find Sources -name '*.swift' -print0 | xargs -0 wc -l)

# 6. The simulated adapters are the shipped adapters, StoreKit 2's (PurserStoreKit) and StoreKit 1's (PurserStoreKit1).
for file in Sources/PurserStoreKit/*.swift Sources/PurserStoreKit1/*.swift; do
  module="$(basename "$(dirname "$file")")"
  link="Sources/PurserStoreKitSimulated/$(basename "$file")"
  [ "$(readlink "$link" 2>/dev/null)" = "../$module/$(basename "$file")" ] \
    || fail "$link must be a symbolic link to ../$module/$(basename "$file")"
done
for link in Sources/PurserStoreKitSimulated/*; do
  { [ -e "Sources/PurserStoreKit/$(basename "$link")" ] || [ -e "Sources/PurserStoreKit1/$(basename "$link")" ]; } \
    && [ -L "$link" ] || fail "$link is not a link to one of PurserStoreKit's or PurserStoreKit1's files"
done

# 7. Children are started by ChildProcess.
for file in $(grep -rlE "(^|[^A-Za-z])Process\(\)" Sources Tests --include='*.swift' || true); do
  fail "$file starts a child with Foundation's Process; use ChildProcess (swift-corelibs-foundation#5472)"
done

# 8. What an app or a game backend links is documented: every public declaration of Purser, PurserStoreKit,
#    PurserStoreKit1 and PurserWebhooks has a doc comment (attributes on their own lines may stand between).
while read -r finding; do
  fail "$finding has no doc comment"
done < <(find Sources/Purser Sources/PurserStoreKit Sources/PurserStoreKit1 Sources/PurserWebhooks -name '*.swift' -print0 \
  | xargs -0 awk '
  FNR == 1 { previous = "" }
  /^[[:space:]]*@[A-Za-z]+(\([^)]*\))?[[:space:]]*$/ { next }
  {
    if ($0 ~ /^[[:space:]]*((@[^ ]+|nonisolated|final|static|override|mutating|convenience|required)[[:space:]]+)*public[[:space:]]/ \
        && $0 !~ /public[[:space:]]+import/ && previous !~ /^[[:space:]]*\/\/\//) {
      print FILENAME ":" FNR
    }
    previous = $0
  }')

# 9. The design is in the repository. The patterns are written so that this file does not match them itself; tracked
#    files and new ones not yet added are searched (git grep --untracked), ignored ones (.build) are not.
outside='\.\./shared|DESIGN\.md'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mentions="$(git grep -I -n -E --untracked "$outside" -- . || true)"
else
  mentions="$(grep -rIn -E --exclude-dir=.build --exclude-dir=.git "$outside" . || true)"
fi
while IFS= read -r mention; do
  [ -n "$mention" ] || continue
  fail "$(cut -d: -f1,2 <<<"$mention") names a document outside the repository; the design is" \
    "Sources/PurserServer/PurserServer.docc/Design.md (link that instead)"
done <<<"$mentions"
design="Sources/PurserServer/PurserServer.docc/Design.md"
if [ ! -f "$design" ]; then
  fail "$design is missing: Purser's design must be in the repository"
elif ! grep -F "]($design)" README.md >/dev/null; then
  fail "README.md does not link the Design article: add a link to ($design) near the top"
fi

if [ "$failures" -gt 0 ]; then
  echo "check-layout: $failures finding(s)"
  exit 1
fi
echo "check-layout: ok"
