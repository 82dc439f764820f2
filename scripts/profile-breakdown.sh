#!/usr/bin/env bash
# Prints where TinyDependency spends its time, so a change can be judged by it:
#
#   1. instructions (callgrind) per scope entry at 0, 10, 100 and 1,000 overridden keys and per
#      first read, against the raw baselines measured the same way, split by function;
#   2. heap allocations per operation of the same cases (valgrind's memcheck);
#   3. the compiler's time on the core module (a clean debug build) and on a consumer's file
#      that uses the public API, with their slowest bodies and key statistics.
#
#   bash scripts/profile-breakdown.sh               # everything (about 10 minutes when idle)
#   PARTS=runtime bash scripts/profile-breakdown.sh # just 1 and 2; PARTS=build just 3
#   CASES="scope.entry.0overridden firstRead" TOP=20 bash scripts/profile-breakdown.sh
#   NO_BUILD=1 …                                    # use the release benchmark already built
#   NO_BUILD=1 BENCH=/tmp/old-benchmarks …          # profile another build (a copy made before)
#
# Instruction counts are repeatable whatever the load on the machine; wall-clock figures are
# not, so this script prints none for the runtime. Each count is the difference between a run of
# LONG and one of SHORT operations, divided by LONG - SHORT: what the first operations pay once
# (a table's first growth, a lazy global) cancels out. Only `callgrindMeasuredLoop` is
# collected (`--toggle-collect`), so a case's setup costs nothing. The per-function tables come
# from the LONG run and are divided by LONG. Needs the Swift toolchain and valgrind.
set -eu

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
parts="${PARTS:-runtime build}"
short="${SHORT:-1000}"
long="${LONG:-11000}"
top="${TOP:-15}"
objects=""
for count in 10 100; do
  for shape in hand.createAndRead createAndRead createAndRead.scoped hand.readAgain readAgain readAgain.scoped; do
    objects+=" objects.$count.$shape"
  done
done
cases="${CASES:-scope.entry.raw scope.entry.0overridden scope.entry.10overridden scope.entry.100overridden scope.entry.1000overridden firstRead.raw.dictionary firstRead.raw.locked firstRead taskLocal.raw.bound dependency.root dependency.overridden dependency.captured$objects}"
breakdown="${BREAKDOWN:-scope.entry.raw scope.entry.0overridden scope.entry.1000overridden firstRead.raw.locked firstRead}"
work="$(mktemp -d "${TMPDIR:-/tmp}/tinydependency-profile.XXXXXX")"
if [[ "${KEEP:-0}" != 1 ]]; then
  trap 'rm -rf "$work"' EXIT
else
  echo "files kept in $work"
fi

demangle() { swift demangle --simplified 2>/dev/null || cat; }

# The Ir callgrind counted in the output file $1 (the "totals:" line).
total_ir() { awk '/^totals:/ { print $2 }' "$1"; }

# Runs the benchmark's case $1, $2 times, under callgrind; prints the output file's path.
callgrind_run() {
  local out="$work/callgrind.$1.$2"
  valgrind --tool=callgrind --toggle-collect='*callgrindMeasuredLoop*' \
    --callgrind-out-file="$out" "$bench" --callgrind "$1" "$2" >/dev/null 2>"$out.log" || {
    echo "error: callgrind run of $1 failed:" >&2
    cat "$out.log" >&2
    exit 1
  }
  echo "$out"
}

# The heap allocations valgrind counted in a run of case $1, $2 times.
allocations_run() {
  local log="$work/memcheck.$1.$2"
  valgrind --tool=memcheck --leak-check=no --log-file="$log" "$bench" --callgrind "$1" "$2" \
    >/dev/null
  awk '/total heap usage:/ { gsub(",", "", $5); print $5 }' "$log"
}

per_op() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / n }'; }

runtime_part() {
  if [[ "${NO_BUILD:-0}" != 1 ]]; then
    swift build -c release --package-path "$repo" --product TinyDependencyBenchmarks 2>&1 |
      grep -E "error|warning" || true
  fi
  bench="${BENCH:-$(swift build -c release --package-path "$repo" --show-bin-path)/TinyDependencyBenchmarks}"
  [[ -x "$bench" ]] || { echo "error: no benchmark at $bench" >&2; exit 1; }

  echo "== 1. Instructions and allocations per operation (callgrind/memcheck, $short vs $long runs)"
  printf '%-30s %14s %12s %14s\n' case instructions vs_raw allocations
  declare -gA ir allocs
  local name few many raw
  for name in $cases; do
    few="$(callgrind_run "$name" "$short")"
    many="$(callgrind_run "$name" "$long")"
    ir[$name]="$(per_op "$(total_ir "$few")" "$(total_ir "$many")" $((long - short)))"
    case "$name" in
      scope.entry.raw | firstRead.raw.* | taskLocal.raw.*) raw="" ;;
      scope.entry.*) raw="scope.entry.raw" ;;
      firstRead) raw="firstRead.raw.locked" ;;
      dependency.*) raw="taskLocal.raw.bound" ;;
      objects.*.hand.*) raw="" ;;
      objects.*.createAndRead*) raw="${name%%.createAndRead*}.hand.createAndRead" ;;
      objects.*.readAgain*) raw="${name%%.readAgain*}.hand.readAgain" ;;
      *) raw="" ;;
    esac
    local ratio="-"
    if [[ -n "$raw" && -n "${ir[$raw]:-}" ]]; then
      ratio="$(awk -v a="${ir[$name]}" -v b="${ir[$raw]}" 'BEGIN { printf "%.2fx", a / b }')"
    fi
    local allocations
    allocations="$(per_op "$(allocations_run "$name" "$short")" "$(allocations_run "$name" "$long")" $((long - short)))"
    allocs[$name]="$allocations"
    printf '%-30s %14s %12s %14s\n' "$name" "${ir[$name]}" "$ratio" "$allocations"
  done
  echo "(ratios: scope entry against scope.entry.raw, a raw TaskLocal withValue of a copied"
  echo " one-key dictionary; firstRead against firstRead.raw.locked, a locked dictionary's miss,"
  echo " default value and insert; dependency.* against taskLocal.raw.bound; objects.N.* against"
  echo " the same object written by hand, objects.N.hand.*.)"
  # Per wrapper: what an object of N wrappers costs beyond the same object written by hand.
  local count shape
  for name in $cases; do
    [[ "$name" == objects.*.createAndRead* || "$name" == objects.*.readAgain* ]] || continue
    [[ "$name" != objects.*.hand.* ]] || continue
    count="${name#objects.}"
    count="${count%%.*}"
    shape="${name#objects.$count.}"
    shape="${shape%.scoped}"
    [[ -n "${ir[objects.$count.hand.$shape]:-}" ]] || continue
    awk -v name="$name" -v n="$count" -v a="${ir[$name]}" -v b="${ir[objects.$count.hand.$shape]}" \
      -v c="${allocs[$name]}" -v d="${allocs[objects.$count.hand.$shape]}" \
      'BEGIN { printf "%-30s per wrapper: %.1f instructions, %.2f allocations beyond the hand-written object\n", name, (a - b) / n, (c - d) / n }'
  done

  for name in $breakdown; do
    local file="$work/callgrind.$name.$long"
    [[ -f "$file" ]] || file="$(callgrind_run "$name" "$long")"
    for mode in inclusive self; do
      echo ""
      echo "-- $name: top $top functions, $mode instructions per operation"
      callgrind_annotate --inclusive="$([[ $mode == inclusive ]] && echo yes || echo no)" \
        --threshold=100 "$file" 2>/dev/null |
        awk -v n="$long" -v top="$top" '
          /^-+$/ { dashes++; next }
          dashes >= 4 && NF >= 2 && $1 ~ /^[0-9,]+$/ {
            count = $1; gsub(",", "", count)
            sub(/^ *[0-9,]+ +(\([^)]*\) +)?/, "")
            sub(/ \[[^]]*\]$/, "")
            printf "%10.1f  %s\n", count / n, $0
          }' | demangle |
        grep -v -E 'PROGRAM TOTALS|libc-start|libc_start|below main|async_Main|_main$|Cases\+Callgrind|callgrindCases|thunk for @|partial apply for closure #2 in $|future_adapter|runJobInEstablished|swift_job_run|\?\?\?:0x0|main\.swift:' |
        sed -e "s|$repo/Sources/||" -e 's|^\( *[0-9.]*  \)\./[^:]*/|\1|' | head -n "$top" | cut -c1-150
    done
  done
}

build_part() {
  echo ""
  echo "== 3. Compile time (a clean debug build, as a consumer's \`swift build\` makes it)"
  local sdk_flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature MemberImportVisibility)
  local module_dir="$work/modules" stats="$work/stats-core" cstats="$work/stats-consumer"
  mkdir -p "$module_dir" "$stats" "$cstats" "$work/objects"
  local sources
  mapfile -t sources < <(find "$repo/Sources/TinyDependency" -name '*.swift' | sort)
  local start end
  start="$(date +%s.%N)"
  swiftc -module-name TinyDependency -package-name tinydependency -parse-as-library -Onone -g \
    -enable-testing -DSWIFT_PACKAGE -DDEBUG -j 2 -enable-batch-mode "${sdk_flags[@]}" \
    -emit-module -emit-module-path "$module_dir/TinyDependency.swiftmodule" \
    -c -working-directory "$work/objects" \
    -driver-time-compilation -stats-output-dir "$stats" \
    -Xfrontend -debug-time-function-bodies \
    -Xfrontend -warn-long-expression-type-checking=100 \
    "${sources[@]}" >"$work/core.out" 2>&1 || { cat "$work/core.out" >&2; exit 1; }
  end="$(date +%s.%N)"
  echo "core module: ${#sources[@]} files, $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s wall (indicative: the machine's load varies)"
  echo ""
  echo "-- time per frontend job, wall (-stats-output-dir; -driver-time-compilation is accepted"
  echo "   and prints nothing with this driver, so the jobs' own timers stand in for it)"
  local job
  for job in "$stats"/*.json; do
    awk -v name="$(basename "$job" | sed -E 's/^stats-[0-9]+-swift-frontend-TinyDependency-//; s/-x86_64.*//')" '
      /"time.swift-frontend\..*\.wall"/ { v = $0; sub(/.*": /, "", v); sub(/,$/, "", v); w = v }
      /"time.swift.Type checking and Semantic analysis.wall"/ { v = $0; sub(/.*": /, "", v); sub(/,$/, "", v); t = v }
      /"time.swift.SILGen.wall"/ { v = $0; sub(/.*": /, "", v); sub(/,$/, "", v); g = v }
      /"time.swift.IRGen.wall"/ { v = $0; sub(/.*": /, "", v); sub(/,$/, "", v); i = v }
      /"time.swift.SIL optimization.wall"/ { v = $0; sub(/.*": /, "", v); sub(/,$/, "", v); o = v }
      /"time.swift.parse-and-resolve-imports.wall"/ { v = $0; sub(/.*": /, "", v); sub(/,$/, "", v); p = v }
      END { printf "   %-28s %6.2f s: parse+imports %.2f, type-check %.2f, SILGen %.2f, SIL opt %.2f, IRGen %.2f, rest (LLVM, by difference) %.2f\n", substr(name, 1, 28), w, p, t, g, o, i, w - p - t - g - o - i }' "$job"
  done
  echo ""
  echo "-- expressions slower than 100 ms to type-check (-warn-long-expression-type-checking=100)"
  grep -E 'took [0-9]+ms to type-check' "$work/core.out" | sed "s|$repo/||" | sort -u ||
    echo "   none"
  echo ""
  echo "-- top $top slowest function bodies to type-check (-debug-time-function-bodies)"
  awk -F'\t' '$1 ~ /ms$/' "$work/core.out" | sort -t$'\t' -k1,1 -g -r | head -n "$top" |
    sed "s|$repo/Sources/TinyDependency/||" | cut -c1-150
  echo ""
  echo "-- statistics summed over the core's frontend jobs (-stats-output-dir)"
  stats_summary "$stats"

  # A consumer: the public API as a user's file writes it.
  mkdir -p "$work/consumer"
  cat >"$work/consumer/Consumer.swift" <<'SWIFT'
import TinyDependency

struct APIClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
  var search: @Sendable (String, Int, Bool) -> [Int]
  var save: @Sendable (String, [Int]) throws -> Void
  var count: @Sendable () -> Int
}

extension APIClient: DependencyKey {
  static let defaultValue = APIClient(
    fetch: { "user \($0)" },
    search: { _, limit, _ in Array(0..<limit) },
    save: { _, _ in },
    count: { 0 }
  )
  static let testValue = APIClient(
    fetch: unimplemented("APIClient.fetch", placeholder: ""),
    search: unimplemented("APIClient.search", placeholder: []),
    save: unimplemented("APIClient.save"),
    count: unimplemented("APIClient.count", placeholder: 0)
  )
}

enum GreetingKey: DependencyKey {
  static let defaultValue = "hello"
}

extension DependencyValues {
  var apiClient: APIClient {
    get { self[APIClient.self] }
    set { self[APIClient.self] = newValue }
  }
  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
}

struct Feature {
  @Dependency(\.apiClient) var apiClient
  @Dependency(\.greeting) var greeting

  func run() async throws -> String {
    let found = apiClient.search(greeting, 3, true)
    try apiClient.save(greeting, found)
    return try await apiClient.fetch(found.count + apiClient.count())
  }
}

func scenes() async throws {
  let text = withDependencies {
    $0.greeting = "hi"
  } operation: {
    Feature().greeting
  }
  let fetched = try await withDependencies {
    $0.apiClient.fetch = { "mock \($0)" }
  } operation: {
    try await Feature().run()
  }
  var explicit = DependencyValues.current
  explicit.greeting = "explicit"
  let bound = withDependencies(explicit) { Feature().greeting }
  let escaped = withEscapedDependencies { continuation in
    continuation.yield { Feature().greeting }
  }
  print(text, fetched, bound, escaped)
}
SWIFT
  # The same file's shape with the library's types declared locally, as a baseline for what
  # importing and resolving against the library costs.
  cat >"$work/consumer/Empty.swift" <<'SWIFT'
import TinyDependency
SWIFT
  local cstart cend
  for file in Empty Consumer; do
    mkdir -p "$cstats/$file"
    cstart="$(date +%s.%N)"
    swiftc -frontend -c -primary-file "$work/consumer/$file.swift" -module-name Consumer \
      -parse-as-library -Onone -g -swift-version 6 -I "$module_dir" \
      -stats-output-dir "$cstats/$file" -debug-time-function-bodies \
      -warn-long-expression-type-checking=1 \
      -o "$work/consumer/$file.o" >"$work/consumer/$file.out" 2>&1 ||
      { cat "$work/consumer/$file.out" >&2; exit 1; }
    cend="$(date +%s.%N)"
    echo ""
    echo "-- consumer file $file.swift: $(awk -v s="$cstart" -v e="$cend" 'BEGIN { printf "%.2f", e - s }') s wall (indicative)"
    stats_summary "$cstats/$file"
  done
  echo ""
  echo "-- consumer: expressions taking 1 ms or more to type-check (-warn-long-expression-type-checking=1;"
  echo "   this toolchain prints nothing for -debug-time-expression-type-checking)"
  grep -E 'took [0-9]+ms to type-check' "$work/consumer/Consumer.out" |
    sed -E "s|^$work/consumer/||; s/: warning: / /" | sort -t' ' -k3 -r | head -n "$top" | cut -c1-150
  echo ""
  echo "-- consumer: top $top function bodies (-debug-time-function-bodies)"
  awk -F'\t' '$1 ~ /ms$/ && $3 ~ /(getter|setter|initializer|function|method|closure|accessor)/' "$work/consumer/Consumer.out" |
    sort -t$'\t' -k1,1 -g -r | head -n "$top" |
    sed "s|$work/consumer/||" | cut -c1-150
}

# Sums the counters named below over every JSON file of -stats-output-dir in $1, and prints them.
stats_summary() {
  cat "$1"/*.json | awk '
    BEGIN {
      n = split("time.swift-frontend (whole job)|time.swift.load-stdlib.wall|" \
        "time.swift.Import resolution.wall|time.swift.Type checking and Semantic analysis.wall|" \
        "time.swift.typecheck-expr.wall|time.swift.SILGen.wall|time.swift.SIL optimization.wall|" \
        "time.swift.IRGen.wall|Sema.NumTypesDeserialized|" \
        "Sema.NumDeclsDeserialized|Sema.NumConformancesDeserialized|Sema.NumConstraintScopes|" \
        "Sema.NumLeafScopes|Sema.NumTypesValidated|Sema.NumFunctionsTypechecked|" \
        "SILModule.NumSILGenFunctions|SILModule.NumSILOptFunctions|" \
        "IRModule.NumIRFunctions|LLVM.NumLLVMBytesOutput", want, "|")
    }
    /^\t"/ {
      line = $0; sub(/^\t"/, "", line)
      key = line; sub(/": .*/, "", key)
      value = line; sub(/.*": /, "", value); sub(/,$/, "", value)
      if (key ~ /^time\.swift-frontend\..*\.wall$/) key = "time.swift-frontend (whole job)"
      sum[key] += value
    }
    END {
      for (i = 1; i <= n; i++) {
        k = want[i]
        if (!(k in sum)) continue
        if (k ~ /^time\./) printf "   %-55s %9.3f s\n", k, sum[k]
        else printf "   %-55s %9d\n", k, sum[k]
      }
    }'
}

for part in $parts; do
  case "$part" in
    runtime) runtime_part ;;
    build) build_part ;;
    *) echo "error: unknown part $part (runtime, build)" >&2; exit 1 ;;
  esac
done
