#!/usr/bin/env bash
# Measures the clean debug build of a one-file consumer of TinyDependency against the clean
# debug build of an empty executable package, and prints the median wall time of each and the
# ratio.
#
#   bash scripts/measure-build-time.sh            # 3 timed builds of each, after 1 warm-up
#   RUNS=5 WARMUP=0 bash scripts/measure-build-time.sh
#   KEEP=1 bash scripts/measure-build-time.sh     # keep the packages (the path is printed)
#
# Both packages live in a new temporary directory. The consumer depends on this checkout by
# path, so each of its builds evaluates this package's manifest and compiles the TinyDependency
# module from source, then its own main.swift, then links. Every build starts from nothing:
# `.build` is removed before it, and manifests are cached inside `.build`
# (`--manifest-cache local`), so no manifest or module cache carries over from one build to the
# next. Builds of the two packages alternate, so load from other processes on the machine falls
# on both alike. Needs only the Swift toolchain (and bash, awk, date, mktemp).
set -euo pipefail

runs="${RUNS:-3}"
warmup="${WARMUP:-1}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tinydependency-build-time.XXXXXX")"
if [[ "${KEEP:-0}" != 1 ]]; then
  trap 'rm -rf "$work"' EXIT
fi

# (a) An empty executable package.
mkdir -p "$work/Empty/Sources/Empty"
cat >"$work/Empty/Package.swift" <<'EOF'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Empty",
  targets: [.executableTarget(name: "Empty")],
  swiftLanguageModes: [.v6]
)
EOF
cat >"$work/Empty/Sources/Empty/main.swift" <<'EOF'
print("empty")
EOF

# (b) A one-file consumer: a key, its registration, a `@Dependency` read and a scope, as the
# README's quick start shows them.
mkdir -p "$work/Consumer/Sources/Consumer"
cat >"$work/Consumer/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Consumer",
  dependencies: [.package(path: "$repo")],
  targets: [
    .executableTarget(
      name: "Consumer",
      dependencies: [.product(name: "TinyDependency", package: "$(basename "$repo")")]
    )
  ],
  swiftLanguageModes: [.v6]
)
EOF
# The quick start's first code block, taken from README.md so that it is the one users copy,
# then a use of it.
awk '/^## Quick start/ { inside = 1 } inside && /^```swift/ { copying = 1; next }
  copying && /^```/ { exit } copying { print }' "$repo/README.md" \
  >"$work/Consumer/Sources/Consumer/main.swift"
grep -q '@Dependency' "$work/Consumer/Sources/Consumer/main.swift" || {
  echo "error: no quick start found in $repo/README.md" >&2
  exit 1
}
cat >>"$work/Consumer/Sources/Consumer/main.swift" <<'EOF'

Checkout().pay(cents: 499)

withDependencies {
  $0.logger = PrintLogger(prefix: "[scoped] ")
} operation: {
  Checkout().pay(cents: 100)
}
EOF

# Prints the wall seconds of one clean debug build of the package in $1.
clean_build() {
  local dir="$1" start end
  rm -rf "$dir/.build"
  start="$(date +%s.%N)"
  if ! swift build --package-path "$dir" --manifest-cache local >"$dir/build.log" 2>&1; then
    echo "error: the build of $dir failed:" >&2
    cat "$dir/build.log" >&2
    exit 1
  fi
  end="$(date +%s.%N)"
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f\n", e - s }'
}

median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) printf "%.2f\n", v[(NR + 1) / 2]
    else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
  }'
}

swift --version 2>&1 | head -n 1
echo "packages in $work; $warmup warm-up and $runs timed clean debug builds of each"

for ((i = 1; i <= warmup; i++)); do
  clean_build "$work/Empty" >/dev/null
  clean_build "$work/Consumer" >/dev/null
done

# The consumer must have compiled TinyDependency from this checkout, not found it elsewhere.
empty_times=()
consumer_times=()
for ((i = 1; i <= runs; i++)); do
  empty_times+=("$(clean_build "$work/Empty")")
  consumer_times+=("$(clean_build "$work/Consumer")")
  if [[ ! -f "$(find "$work/Consumer/.build" -name 'TinyDependency.swiftmodule' -print -quit)" ]]; then
    echo "error: the consumer's build produced no TinyDependency.swiftmodule" >&2
    exit 1
  fi
  echo "run $i: empty ${empty_times[-1]} s, consumer ${consumer_times[-1]} s"
done

empty="$(median "${empty_times[@]}")"
consumer="$(median "${consumer_times[@]}")"
echo "empty package:     median ${empty} s (${empty_times[*]})"
echo "one-file consumer: median ${consumer} s (${consumer_times[*]})"
awk -v c="$consumer" -v e="$empty" 'BEGIN { printf "ratio: %.2fx (goal: 2x or less)\n", c / e }'
