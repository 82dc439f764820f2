#!/usr/bin/env bash
# Tests scripts/check-layers.sh: it passes on the core as it is, and each kind of break, added to
# a copy of the core, fails it with the file and line of the break.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/check-layers.sh Sources/TinyDependency >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# expect_break NAME FILE LINE-TEXT PATTERN: appends LINE-TEXT to FILE in a fresh copy of the core
# and expects the check to fail naming FILE and PATTERN.
expect_break() {
  local name=$1 file=$2 text=$3 pattern=$4
  rm -rf "$work/core" && cp -r Sources/TinyDependency "$work/core"
  mkdir -p "$(dirname "$work/core/$file")"
  if [ "${file%/}" != "$file" ]; then
    printf '%s\n' "$text" >>"$work/core/${file}Probe.swift"
  else
    printf '%s\n' "$text" >>"$work/core/$file"
  fi
  local output
  if output=$(bash scripts/check-layers.sh "$work/core" Sources 2>&1); then
    echo "test-check-layers: $name was not caught" >&2
    failed=1
  elif ! grep -qE "^(\./)?${file}:[0-9]+:.*${pattern}" <<<"$output"; then
    echo "test-check-layers: $name was caught without its file, line or reason:" >&2
    printf '%s\n' "$output" >&2
    failed=1
  fi
}

expect_break "a platform #if in the container" Container/StorageState.swift \
  $'#if os(Linux)\n#endif' 'platform #if'
expect_break "a container type named in Speed/" Speed/KeySet.swift \
  'func probe(_ storage: DependencyStorage) {}' 'container.s type DependencyStorage'
expect_break "a convenience reaching into the storage" Conveniences/ReportIssue.swift \
  'func probe(_ values: DependencyValues) -> Bool { values.storage.isProcessRoot }' 'isProcessRoot'
expect_break "the storage naming a layer above the seam" Container/StorageState.swift \
  'func probe(_ record: EntryPointRecord) {}' 'layer above the seam, not EntryPointRecord'
expect_break "the build naming another product's type" Build/Diagnostics.swift \
  'func probe(_ scope: TestScope) {}' 'layer above the seam, not TestScope'
expect_break "an afternoon read over its budget" Container/ \
  "$(for i in $(seq 1 100); do printf 'let probe%d = 0\n' "$i"; done)" 'afternoon read'
expect_break "a key reading DependencyValues.current" Conveniences/ReportIssue.swift \
  $'enum ProbeKey: DependencyKey {\n  static var defaultValue: Int {\n    DependencyValues.current[ProbeKey.self]\n  }\n}' 'build reads its frame'
expect_break "the container binding the task-local" Container/StorageState.swift \
  'func probe() { DependencyValues.boundLocal.withValue(nil) {} }' 'binds the task-local'
expect_break "the wrapper reading a storage" Dependency.swift \
  'func probe(_ values: DependencyValues) -> UInt64 { values.storage.serial }' 'wrapper reads'

if [ "$failed" -ne 0 ]; then exit 1; fi
echo "test-check-layers: each kind of break is caught with its file and line"
