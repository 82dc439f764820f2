#!/usr/bin/env bash
# Measures the clean debug build of a small Foundation app that uses TinyDependency against the
# clean debug build of the same app without it, and prints the median wall time of each and the
# ratio (the goal: 1.3x or less).
#
# A debug `swift build` on Linux indexes while it builds (SwiftPM's default): each compile job of
# a module also indexes the system modules it imports (the standard library, Glibc,
# Synchronization), and a module of more than 50 files is compiled in three batch jobs on two
# cores, so the library pays that index pass three times. The same builds with
# `--disable-index-store` show what compiling the library itself costs: INDEX=0 measures those
# only, INDEX=both (the default) measures both ways.
#
#   bash scripts/measure-build-time.sh            # 3 timed builds of each, after 1 warm-up
#   RUNS=5 WARMUP=0 bash scripts/measure-build-time.sh
#   KEEP=1 bash scripts/measure-build-time.sh     # keep the packages (the path is printed)
#   INDEX=1 bash scripts/measure-build-time.sh    # SwiftPM's default (index store) only
#
# Both packages live in a new temporary directory. The consumer depends on this checkout by
# path, so each of its builds evaluates this package's manifest and compiles the TinyDependency
# module from source, then its own files, then links. The baseline is the same app, with
# Foundation and without TinyDependency: what a user's app costs to build before it adds this
# package. Every build starts from nothing:
# `.build` is removed before it, and manifests are cached inside `.build`
# (`--manifest-cache local`), so no manifest or module cache carries over from one build to the
# next. Builds of the two packages alternate, so load from other processes on the machine falls
# on both alike. Needs only the Swift toolchain (and bash, awk, date, mktemp).
set -euo pipefail

runs="${RUNS:-3}"
warmup="${WARMUP:-1}"
index="${INDEX:-both}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tinydependency-build-time.XXXXXX")"
if [[ "${KEEP:-0}" != 1 ]]; then
  trap 'rm -rf "$work"' EXIT
fi

# The app both packages build: Foundation's types, as an app's model code uses them.
app_file() {
  cat <<'SWIFT'
import Foundation

struct Order: Codable {
  let id: UUID
  let total: Decimal
  let placed: Date
  let items: [String]
}

func runApp() {
  let order = Order(id: UUID(), total: 4.99, placed: Date(), items: ["tea", "cake"])
  let encoder = JSONEncoder()
  encoder.dateEncodingStrategy = .iso8601
  let data = try! encoder.encode(order)
  let decoded = try! JSONDecoder.iso8601.decode(Order.self, from: data)
  let formatter = NumberFormatter()
  formatter.numberStyle = .currency
  print(decoded.items.joined(separator: ", "), formatter.string(for: decoded.total) ?? "?")
}

extension JSONDecoder {
  static var iso8601: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
SWIFT
}

# (a) The app without TinyDependency.
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
app_file >"$work/Empty/Sources/Empty/App.swift"
cat >"$work/Empty/Sources/Empty/main.swift" <<'EOF'
runApp()
EOF

# (b) The same app with TinyDependency: a key, its registration, a `@Dependency` read and a
# scope, as the README's quick start shows them.
mkdir -p "$work/Consumer/Sources/Consumer"
app_file >"$work/Consumer/Sources/Consumer/App.swift"
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

runApp()
Checkout().pay(cents: 499)

withDependencies {
  $0.logger = PrintLogger(prefix: "[scoped] ")
} operation: {
  Checkout().pay(cents: 100)
}
EOF

# Prints the wall seconds of one clean debug build of the package in $1, with the flags after it.
clean_build() {
  local dir="$1" start end
  shift
  rm -rf "$dir/.build"
  start="$(date +%s.%N)"
  if ! swift build --package-path "$dir" --manifest-cache local "$@" >"$dir/build.log" 2>&1; then
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

# Measures both packages built with the flags given, alternating; prints the medians and ratio.
measure() {
  local label="$1" i empty consumer
  shift
  echo "$label"
  for ((i = 1; i <= warmup; i++)); do
    clean_build "$work/Empty" "$@" >/dev/null
    clean_build "$work/Consumer" "$@" >/dev/null
  done
  # The consumer must have compiled TinyDependency from this checkout, not found it elsewhere.
  local empty_times=() consumer_times=()
  for ((i = 1; i <= runs; i++)); do
    empty_times+=("$(clean_build "$work/Empty" "$@")")
    consumer_times+=("$(clean_build "$work/Consumer" "$@")")
    if [[ ! -f "$(find "$work/Consumer/.build" -name 'TinyDependency.swiftmodule' -print -quit)" ]]; then
      echo "error: the consumer's build produced no TinyDependency.swiftmodule" >&2
      exit 1
    fi
    echo "  run $i: app ${empty_times[-1]} s, app + library ${consumer_times[-1]} s"
  done
  empty="$(median "${empty_times[@]}")"
  consumer="$(median "${consumer_times[@]}")"
  echo "  Foundation app:                  median ${empty} s (${empty_times[*]})"
  echo "  Foundation app + TinyDependency: median ${consumer} s (${consumer_times[*]})"
  awk -v c="$consumer" -v e="$empty" \
    'BEGIN { printf "  ratio: %.2fx (goal: 1.3x or less); the library adds %.2f s\n", c / e, c - e }'
}

case "$index" in
  1) measure "SwiftPM's default, indexing while building:" ;;
  0) measure "with --disable-index-store:" --disable-index-store ;;
  both)
    measure "SwiftPM's default, indexing while building:"
    measure "with --disable-index-store:" --disable-index-store
    ;;
  *)
    echo "error: INDEX is 1, 0 or both, not '$index'" >&2
    exit 1
    ;;
esac
