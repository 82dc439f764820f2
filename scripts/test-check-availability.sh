#!/usr/bin/env bash
# Tests scripts/check-availability.sh on its fixtures: it must report exactly the lines marked
# "rejected" in scripts/availability-fixtures/rejected (an unannotated `extension Clock` among
# them) and nothing in scripts/availability-fixtures/accepted.
set -euo pipefail
cd "$(dirname "$0")/.."

fixtures=scripts/availability-fixtures
failed=0

if output=$(bash scripts/check-availability.sh "$fixtures/rejected" 2>&1); then
  echo "test-check-availability: the check accepted $fixtures/rejected" >&2
  failed=1
fi
reported=$(printf '%s\n' "$output" | grep -oE '^[^:]+\.swift:[0-9]+' | LC_ALL=C sort -u || true)
expected=$(grep -n 'rejected:' "$fixtures/rejected/Unannotated.swift" | cut -d: -f1 |
  sed "s|^|$fixtures/rejected/Unannotated.swift:|" | LC_ALL=C sort -u)
if [ "$reported" != "$expected" ]; then
  echo "test-check-availability: reported lines differ from the lines marked rejected" >&2
  diff <(printf '%s\n' "$expected") <(printf '%s\n' "$reported") >&2 || true
  printf '%s\n' "$output" >&2
  failed=1
fi
if ! grep -q 'Unannotated.swift:4: uses Clock' <<<"$output"; then
  echo "test-check-availability: the unannotated extension Clock was not reported" >&2
  failed=1
fi

if ! output=$(bash scripts/check-availability.sh "$fixtures/accepted" 2>&1); then
  echo "test-check-availability: the check rejected $fixtures/accepted:" >&2
  printf '%s\n' "$output" >&2
  failed=1
fi

if [ "$failed" -ne 0 ]; then exit 1; fi
echo "test-check-availability: rejected $(wc -l <<<"$expected" | tr -d ' ') marked uses, accepted the rest"
