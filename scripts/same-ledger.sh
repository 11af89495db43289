#!/usr/bin/env bash
# Sourced by the backup scripts. same_ledger SCRIPT A B LINE...: the reports of `purser ledger check` (or `purser
# backup`) in files A and B hold each LINE's prefix ("balances' checksum", "rows:", …) with the same text, or SCRIPT
# says which differs and exits 1.
same_ledger() {
  local script="$1" first="$2" second="$3"
  shift 3
  for line in "$@"; do
    local in_first in_second
    in_first="$(grep "^$line" "$first")"
    in_second="$(grep "^$line" "$second")"
    [ -n "$in_first" ] && [ "$in_first" = "$in_second" ] ||
      { echo "$script: $line differs: $in_first / $in_second"; exit 1; }
  done
}
