#!/usr/bin/env bash
# Compiles the client SDK's Apple-only code without a Mac, against hand-written interfaces of Apple's frameworks
# (scripts/storekit-interface: StoreKit, Network, UIKit, AppKit, WatchKit; declarations only, written from Apple's
# documentation, with Apple's Sendable conformances, isolation and availability; library evolution, so their enums
# are not frozen):
#   1. for each platform family (UIKit: iOS, iPadOS, tvOS, Mac Catalyst, visionOS; AppKit: macOS; WatchKit: watchOS),
#      the `Purser` target with its `#if canImport(Network)` / UI-framework branches (the recovery signals), then
#      `Sources/PurserStoreKit` and `Sources/PurserStoreKit1` (the adapters' `#if canImport(StoreKit)` branch) against
#      that Purser;
#   1b. the SDK guides' Apple-only samples (SwiftUI, UIKit, StoreKit's views; scripts/guide-samples.py extracts them,
#      each page's samples one module), the Launch snippet and examples/PurserShop.swiftpm's sources, against UIKit's
#      family (with a hand-written SwiftUI interface) and PurserStoreKit; and a page that uses a name it does not
#      define, which must fail;
#   2. mutants: copies of the adapters with a use real StoreKit rejects (a non-Sendable payment sent to another task,
#      main-actor UIKit state read off the main actor, a non-exhaustive switch over a StoreKit enum, a misspelt
#      optional delegate or restore-observer method); each must fail to compile, with the expected diagnostic, or the
#      check has no teeth.
# Everything compiles with `swiftc -emit-sil -swift-version 6` (`-typecheck` misses data-race errors), the package's
# upcoming features, and warnings as errors except deprecations (StoreKit 1 is deprecated), as the package builds.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

interfaces=scripts/storekit-interface
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

export PURSER_WARNINGS_AS_ERRORS=1  # the same build settings as scripts/test.sh, so nothing is rebuilt
swift build --target PurserCore >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
mkdir -p "$work/core"
cp -R "$(swift build --show-bin-path)/Modules/PurserCore.swiftmodule" "$work/core/"

flags=(
  -swift-version 6 -parse-as-library
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
  -warnings-as-errors -Wwarning DeprecatedDeclaration
)
mapfile -t purser_sources < <(find Sources/Purser -name '*.swift' | sort)
# SwiftPM generates `Bundle.module` for a target with resources (Purser's String Catalog); swiftc alone does not.
echo 'import Foundation
extension Foundation.Bundle { static let module = Bundle.main }' >"$work/resource_bundle_accessor.swift"
purser_sources+=("$work/resource_bundle_accessor.swift")

# compile FAMILY MODULE SOURCES...: emits SIL (all diagnostics) for MODULE against the FAMILY's frameworks.
compile() {
  local family="$1" module="$2"
  shift 2
  swiftc -wmo -emit-sil -o /dev/null -module-name "$module" "${flags[@]}" \
    -I "$work/$family" -I "$work/core" -I "$interfaces" -I "$interfaces/$family" \
    -module-cache-path "$work/cache-$family" "$@"
}

for family in uikit appkit watchkit; do
  mkdir -p "$work/$family"
  echo "== $family: Purser (recovery signals)"
  compile "$family" Purser "${purser_sources[@]}"
  swiftc -emit-module -emit-module-path "$work/$family/Purser.swiftmodule" -module-name Purser "${flags[@]}" \
    -I "$work/core" -I "$interfaces" -I "$interfaces/$family" -module-cache-path "$work/cache-$family" \
    "${purser_sources[@]}"
  echo "== $family: PurserStoreKit (StoreKit 2's adapter against StoreKit)"
  compile "$family" PurserStoreKit Sources/PurserStoreKit/*.swift
  echo "== $family: PurserStoreKit1 (StoreKit 1's adapter against StoreKit)"
  compile "$family" PurserStoreKit1 Sources/PurserStoreKit1/*.swift
done

echo "== uikit: the SDK guides' Apple-only samples, each page one module, and the Launch snippet"
swiftc -emit-module -emit-module-path "$work/uikit/PurserStoreKit.swiftmodule" -module-name PurserStoreKit \
  "${flags[@]}" -I "$work/uikit" -I "$work/core" -I "$interfaces" -I "$interfaces/uikit" \
  -module-cache-path "$work/cache-uikit" Sources/PurserStoreKit/*.swift
python3 scripts/guide-samples.py apple "$work/guides"
for page in "$work"/guides/*/; do
  compile uikit "Guide$(basename "$page")" "$page"*.swift
done
compile uikit LaunchSnippet Snippets/SDK/Launch.swift
compile uikit PurserShopExample examples/PurserShop.swiftpm/Sources/*.swift
# A page whose sample calls a helper it never defines (as the guides once called `mySession()`) must not compile.
sed -i 's/SignedInUser.restored?.session/mySession()/' "$work/guides/GettingStartedSwiftUI/1.swift"
if compile uikit GuideMutant "$work"/guides/GettingStartedSwiftUI/*.swift >"$work/guide.log" 2>&1 \
  || ! grep -q "cannot find 'mySession' in scope" "$work/guide.log"; then
  cat "$work/guide.log"
  echo "check-storekit-interface: a guide sample using an undefined name was not rejected; the check has no teeth"
  exit 1
fi
echo "== a guide sample that uses a name its page does not define is rejected, as expected"

# mutant NAME FILE EXPECTED OLD NEW: the adapter's module (PurserStoreKit or PurserStoreKit1, whichever holds FILE)
# with OLD replaced by NEW in FILE must fail with EXPECTED.
mutant() {
  local name="$1" file="$2" expected="$3" old="$4" new="$5" module=PurserStoreKit
  [ -e "Sources/PurserStoreKit1/$file" ] && module=PurserStoreKit1
  rm -rf "$work/mutant" && cp -R "Sources/$module" "$work/mutant"
  OLD="$old" NEW="$new" python3 - "$work/mutant/$file" <<'EOF'
import os, sys
path = sys.argv[1]
text = open(path).read()
if os.environ["OLD"] not in text:
    sys.exit(f"mutant no longer applies: {path} lacks the text to replace")
open(path, "w").write(text.replace(os.environ["OLD"], os.environ["NEW"], 1))
EOF
  if compile uikit "$module" "$work"/mutant/*.swift >"$work/mutant.log" 2>&1; then
    echo "check-storekit-interface: mutant '$name' compiled; the interface check would not catch it"
    exit 1
  fi
  if ! grep -qF "$expected" "$work/mutant.log"; then
    cat "$work/mutant.log"
    echo "check-storekit-interface: mutant '$name' failed, but not with: $expected"
    exit 1
  fi
  echo "== mutant rejected as expected: $name"
  grep -m1 -F "$expected" "$work/mutant.log" | sed "s|^$work/mutant/|    |"
}

mutant "a non-Sendable SKPayment sent to the watchdog task" StoreKit1Adapter.swift \
  "risks causing data races" \
  "self?.takeWaiter(productID)?.resume(returning: .stalled)" \
  "self?.takeWaiter(payment.productIdentifier)?.resume(returning: .stalled)"
mutant "the foreground scene read off the main actor" "StoreKit2Adapter+Purchase.swift" \
  "can not be referenced from a nonisolated context" \
  "            @MainActor
            private static func purchaseInForegroundScene(" \
  "            private static func purchaseInForegroundScene("
mutant "a switch over Product.PurchaseError without @unknown default" "StoreKit2Adapter+Failure.swift" \
  "may have additional unknown values" \
  "            @unknown default: .unknown
            }
        }

        /// A cancel" \
  "            }
        }

        /// A cancel"
mutant "a misspelt optional SKRequestDelegate method" ReceiptRefresher.swift \
  "nearly matches defaulted requirement" \
  "func request(_ request: SKRequest, didFailWithError error: any Error)" \
  "func request(_ request: SKRequest, didFailWithErorr error: any Error)"

mutant "a misspelt optional SKPaymentTransactionObserver restore callback" "StoreKit1Adapter+Observer.swift" \
  "nearly matches defaulted requirement" \
  "public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue)" \
  "public func paymentQueueRestoreCompletedTransactionFinished(_ queue: SKPaymentQueue)"

echo "check-storekit-interface: ok"
