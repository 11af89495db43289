#!/usr/bin/env bash
# An app that depends on this repository for the client SDK resolves none of the server's packages (issue 29):
# makes a throwaway app package that depends on the repository by path, as the README tells an app to
# (`traits: []`), for Purser, PurserStoreKit and PurserTesting; resolves it and fails if any package was resolved
# at all (Hummingbird, NIO, postgres-nio, async-http-client, swift-prometheus, jwt-kit or anything else); then
# builds it and runs it. With the Simulator trait it may resolve Apple's signatures but no server package. With the
# repository's default traits it must resolve the server's packages, or this check could not fail. Exits non-zero on
# any failure; about a minute.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

app="$work/app"
mkdir -p "$app/Sources/Shop"
write_manifest() {  # write_manifest TRAITS_ARGUMENT
  cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "shop",
    dependencies: [.package(path: "$repo"$1)],
    targets: [
        .executableTarget(
            name: "Shop",
            dependencies: [
                .product(name: "Purser", package: "$(basename "$repo")"),
                .product(name: "PurserStoreKit", package: "$(basename "$repo")"),
                .product(name: "PurserTesting", package: "$(basename "$repo")"),
            ])
    ])
MANIFEST
}
cat >"$app/Sources/Shop/main.swift" <<'SWIFT'
import Foundation
import Purser
import PurserStoreKit
import PurserTesting

let store = SimulatorStoreAdapter(server: URL(string: "http://127.0.0.1:8080")!)
// The String Catalog ships inside the SDK's resource bundle: a message in Japanese proves the app found it.
let message = PurchaseFailureReason.cancelled.message(.japanese)
guard message.unicodeScalars.contains(where: { (0x3040...0x30FF).contains($0.value) }) else {
    print("FAIL: the SDK's String Catalog was not found in the app; the message was \(message)")
    exit(1)
}
print("shop built with \(type(of: store)); a cancelled purchase in Japanese: \(message)")
SWIFT

resolved() {  # the packages the app resolved, one per line
  (cd "$app" && rm -rf .build Package.resolved && swift package resolve >/dev/null 2>&1)
  ls "$app/.build/checkouts" 2>/dev/null || true
}

write_manifest ', traits: []'
packages="$(resolved)"
if [[ -n "$packages" ]]; then
  echo "FAIL: an app that depends on the SDK (traits: []) resolved these packages:" >&2
  echo "$packages" | sed 's/^/  /' >&2
  exit 1
fi
(cd "$app" && swift build >"$work/build.log" 2>&1) || { cat "$work/build.log"; exit 1; }
(cd "$app" && swift run --skip-build Shop)
# PurserStoreKit is StoreKit 2's adapter; StoreKit 1's is PurserStoreKit1, which this app does not link.
# (SwiftPM makes an empty folder for every target of the graph; what counts is a compiled object file in it.)
if ! find "$app/.build" -path '*/PurserStoreKit.build/*.o' | grep -q .; then
  echo "FAIL: the check looks for compiled adapters where there are none; it would not see StoreKit 1's" >&2
  exit 1
fi
if find "$app/.build" -path '*/PurserStoreKit1.build/*.o' | grep -q .; then
  echo "FAIL: an app that links PurserStoreKit (StoreKit 2) compiled StoreKit 1's adapter (PurserStoreKit1)" >&2
  exit 1
fi
echo "ok: the app resolved no package and built Purser, PurserStoreKit and PurserTesting, and no StoreKit 1 code"

# The Simulator trait (PurserTesting's in-process simulated StoreKit) brings Apple's signatures, never the server.
write_manifest ', traits: ["Simulator"]'
packages="$(resolved)"
server='^(hummingbird|swift-nio|postgres-nio|async-http-client|swift-prometheus|swift-service-lifecycle)$'
if echo "$packages" | grep -qE "$server"; then
  echo "FAIL: with traits: [\"Simulator\"] the app resolved server packages:" >&2
  echo "$packages" | grep -E "$server" | sed 's/^/  /' >&2
  exit 1
fi
echo "ok: with traits: [\"Simulator\"] the app resolves $(echo "$packages" | wc -l) packages, none of the server's:" \
  $packages

write_manifest ''
packages="$(resolved)"
count="$(echo "$packages" | wc -l)"
if ! echo "$packages" | grep -qx hummingbird; then
  echo "FAIL: with the default traits the app should resolve the server's packages; the check has no teeth" >&2
  exit 1
fi
echo "ok: with the repository's default traits (Server) the same app resolves $count packages, hummingbird among them"
