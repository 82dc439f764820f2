#!/usr/bin/env bash
# Builds the documentation of TinyDependency, TinyDependencyGraph, TinyDependencyValidation,
# TinyDependencyTesting, TinyDependencyBuiltins, TinyDependencyLifecycle, TinyDependencySwiftUI,
# TinyDependencyCollections and TinyDependencyFactories as a
# static website with only the toolchain (swift and docc, no plugin), and fails when a public
# symbol of any of them has no abstract or when docc warns, which includes every broken link and unresolved symbol
# reference.
#
#   bash scripts/build-docs.sh [--scratch-path PATH]
#
# Output, under .build/docs/:
#   TinyDependency.doccarchive/         the core's documentation, ready for static hosting
#   TinyDependencyValidation.doccarchive/ the validation product's (the command-line check)
#   TinyDependencyTesting.doccarchive/  the test-support product's
#   TinyDependencyBuiltins.doccarchive/ the built-ins product's
#   TinyDependencyLifecycle.doccarchive/, TinyDependencyCollections.doccarchive/,
#   TinyDependencyFactories.doccarchive/ the lifecycle's, the collections' and the factories'
#   site/                               all of them in one site, linked to each other
#
# --scratch-path: where the modules are built with symbol graphs (default .build/docs-scratch);
# a directory of its own, since the extra compiler flags would invalidate a normal build.
# DOCC: the docc executable, when it is not found next to swift.
# DOCC_HOSTING_BASE_PATH: the path the site is served under, such as /TinyDependency.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/docs-scratch
while [ $# -gt 0 ]; do
  case $1 in
    --scratch-path)
      scratch=$2
      shift 2
      ;;
    *)
      echo "usage: $0 [--scratch-path PATH]" >&2
      exit 2
      ;;
  esac
done

mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
out=.build/docs
modules=(TinyDependency TinyDependencyGraph TinyDependencyValidation TinyDependencyTesting
  TinyDependencyBuiltins TinyDependencyLifecycle TinyDependencySwiftUI TinyDependencyCollections
  TinyDependencyFactories)
graphs=$scratch/symbol-graphs
work=$out/work

step() { printf '\n== %s\n' "$*"; }

# docc: $DOCC, else xcrun on macOS, else next to the real swift executable, else on PATH.
find_docc() {
  if [ -n "${DOCC:-}" ]; then
    echo "$DOCC"
  elif [ "$(uname)" = Darwin ] && xcrun --find docc 2>/dev/null; then
    :
  else
    local swift
    swift=$(command -v swift)
    swift=$(readlink -f "$swift" 2>/dev/null || echo "$swift")
    if [ -x "$(dirname "$swift")/docc" ]; then
      echo "$(dirname "$swift")/docc"
    elif command -v docc; then
      :
    else
      echo "build-docs: no docc next to $swift or on PATH; set DOCC" >&2
      exit 1
    fi
  fi
}
docc=$(find_docc)
echo "docc: $docc"

step "symbol graphs"
# The compiler writes a module's symbol graphs when it compiles the module, so a missing file
# after an up-to-date build means the directory was removed: rebuild from scratch once. (It never
# deletes one: after removing every extension of another module's types, delete the scratch
# directory, or the old Module@Other.symbols.json file stays.)
build_symbol_graphs() {
  mkdir -p "$graphs"
  for target in TinyDependencyTesting TinyDependencyBuiltins TinyDependencyLifecycle \
    TinyDependencySwiftUI TinyDependencyCollections TinyDependencyFactories; do
    swift build --scratch-path "$scratch" --target "$target" \
      -Xswiftc -emit-symbol-graph \
      -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
      -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
      -Xswiftc -symbol-graph-skip-synthesized-members \
      -Xswiftc -emit-extension-block-symbols
  done
}
build_symbol_graphs
if [ ! -f "$graphs/TinyDependency.symbols.json" ] ||
  [ ! -f "$graphs/TinyDependencyGraph.symbols.json" ] ||
  [ ! -f "$graphs/TinyDependencyValidation.symbols.json" ] ||
  [ ! -f "$graphs/TinyDependencyTesting.symbols.json" ] ||
  [ ! -f "$graphs/TinyDependencyBuiltins.symbols.json" ] ||
  [ ! -f "$graphs/TinyDependencyLifecycle.symbols.json" ] ||
  [ ! -f "$graphs/TinyDependencySwiftUI.symbols.json" ] ||
  [ ! -f "$graphs/TinyDependencyCollections.symbols.json" ] ||
  [ ! -f "$graphs/TinyDependencyFactories.symbols.json" ]; then
  echo "build-docs: symbol graphs missing; rebuilding $scratch"
  rm -rf "$scratch"
  build_symbol_graphs
fi
rm -rf "$out"
mkdir -p "$work"
shopt -s nullglob
for module in "${modules[@]}"; do
  # The module's own graph and those of its extensions to other modules (Module@Other).
  mkdir -p "$work/graphs/$module"
  cp "$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json "$work/graphs/$module/"
done
shopt -u nullglob

# Converts a module's catalog into a static-hosting archive that other archives can link to.
convert() {
  local module=$1 output=$2
  shift 2
  local hosting=()
  if [ -n "${DOCC_HOSTING_BASE_PATH:-}" ]; then
    hosting=(--hosting-base-path "$DOCC_HOSTING_BASE_PATH")
  fi
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$work/graphs/$module" \
    --output-dir "$output" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "$module" \
    --transform-for-static-hosting \
    --enable-experimental-external-link-support \
    ${hosting[@]+"${hosting[@]}"} \
    "$@"
}

# The two catalogs link to each other. A first pass over the core, whose only problems are its
# links to TinyDependencyTesting, gives the test-support catalog the core's links; the core is
# then converted again, and checked, against the finished test-support archive.
step "docc: TinyDependency (links for TinyDependencyTesting)"
if ! convert TinyDependency "$work/TinyDependency-links.doccarchive" >"$work/links.log" 2>&1; then
  cat "$work/links.log" >&2
  echo "build-docs: docc could not convert TinyDependency" >&2
  exit 1
fi

# Each conversion writes its diagnostics to a file, checked below with the coverage: any warning
# (a broken link, an unresolved or ambiguous symbol reference, a parameter without
# documentation) fails the build, as --warnings-as-errors would, but every archive is still
# written, so one run reports every problem of both modules.
# The graph links to the core; the test-support product links to both.
step "docc: TinyDependencyGraph"
convert TinyDependencyGraph "$out/TinyDependencyGraph.doccarchive" \
  --dependency "$work/TinyDependency-links.doccarchive" \
  --diagnostics-output-path "$work/TinyDependencyGraph-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

# The validation product links to the core and the graph; the test-support product to all three.
step "docc: TinyDependencyValidation"
convert TinyDependencyValidation "$out/TinyDependencyValidation.doccarchive" \
  --dependency "$work/TinyDependency-links.doccarchive" \
  --dependency "$out/TinyDependencyGraph.doccarchive" \
  --diagnostics-output-path "$work/TinyDependencyValidation-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

step "docc: TinyDependencyTesting"
convert TinyDependencyTesting "$out/TinyDependencyTesting.doccarchive" \
  --dependency "$work/TinyDependency-links.doccarchive" \
  --dependency "$out/TinyDependencyGraph.doccarchive" \
  --dependency "$out/TinyDependencyValidation.doccarchive" \
  --diagnostics-output-path "$work/TinyDependencyTesting-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

step "docc: TinyDependency"
convert TinyDependency "$out/TinyDependency.doccarchive" \
  --dependency "$out/TinyDependencyTesting.doccarchive" \
  --dependency "$out/TinyDependencyGraph.doccarchive" \
  --dependency "$out/TinyDependencyValidation.doccarchive" \
  --diagnostics-output-path "$work/TinyDependency-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

# The built-ins link to the core; nothing links to them.
step "docc: TinyDependencyBuiltins"
convert TinyDependencyBuiltins "$out/TinyDependencyBuiltins.doccarchive" \
  --dependency "$out/TinyDependency.doccarchive" \
  --diagnostics-output-path "$work/TinyDependencyBuiltins-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

# The lifecycle links to the core; nothing links to it.
step "docc: TinyDependencyLifecycle"
convert TinyDependencyLifecycle "$out/TinyDependencyLifecycle.doccarchive" \
  --dependency "$out/TinyDependency.doccarchive" \
  --diagnostics-output-path "$work/TinyDependencyLifecycle-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

# The SwiftUI product links to the core; nothing links to it. On Linux its extensions are of the
# stand-in module's types (TinyDependencySwiftUI@SwiftUIStandIn), which docc documents the same.
step "docc: TinyDependencySwiftUI"
convert TinyDependencySwiftUI "$out/TinyDependencySwiftUI.doccarchive" \
  --dependency "$out/TinyDependency.doccarchive" \
  --diagnostics-output-path "$work/TinyDependencySwiftUI-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

# Collections and factories link to the core, as the lifecycle does; nothing links to them.
step "docc: TinyDependencyCollections"
convert TinyDependencyCollections "$out/TinyDependencyCollections.doccarchive" \
  --dependency "$out/TinyDependency.doccarchive" \
  --diagnostics-output-path "$work/TinyDependencyCollections-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

step "docc: TinyDependencyFactories"
convert TinyDependencyFactories "$out/TinyDependencyFactories.doccarchive" \
  --dependency "$out/TinyDependency.doccarchive" \
  --diagnostics-output-path "$work/TinyDependencyFactories-diagnostics.json" \
  --experimental-documentation-coverage --coverage-summary-level brief

step "abstracts and diagnostics"
cat >"$work/CheckDocs.swift" <<'SWIFT'
// For each module: lists the public symbols without an abstract (docc's
// documentation-coverage.json) and docc's warnings and errors (its diagnostics file).
// Arguments: the output directory, the work directory, then the module names.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let (out, work, modules) = (arguments[0], arguments[1], arguments.dropFirst(2))
let root = FileManager.default.currentDirectoryPath + "/"
var problems = 0

func json(_ path: String) -> Any? {
  FileManager.default.contents(atPath: path).flatMap { try? JSONSerialization.jsonObject(with: $0) }
}

for module in modules {
  let coveragePath = "\(out)/\(module).doccarchive/documentation-coverage.json"
  if let entries = json(coveragePath) as? [[String: Any]] {
    var symbols = 0
    var offenders: [String] = []
    for entry in entries {
      guard let kind = entry["kind"] as? [String: Any], kind["isSymbol"] as? Bool == true else {
        continue
      }
      symbols += 1
      if entry["hasAbstract"] as? Bool != true {
        let reference = entry["referencePath"] as? String ?? "?"
        offenders.append("  \(reference) (\(kind["name"] as? String ?? "?"))")
      }
    }
    let documented = symbols - offenders.count
    let percent = symbols == 0 ? 0 : Double(documented * 1000 / symbols) / 10
    print("\(module): \(documented) of \(symbols) symbols have an abstract (\(percent)%)")
    if !offenders.isEmpty { print("without an abstract:") }
    offenders.sorted().forEach { print($0) }
    problems += offenders.count
  } else {
    print("\(module): no coverage data at \(coveragePath)")
    problems += 1
  }

  let diagnosticsPath = "\(work)/\(module)-diagnostics.json"
  if let file = json(diagnosticsPath) as? [String: Any],
    let diagnostics = file["diagnostics"] as? [[String: Any]]
  {
    let serious = diagnostics.filter { ["warning", "error"].contains($0["severity"] as? String) }
    print("\(module): \(serious.count) docc warnings and errors")
    let lines = serious.map { diagnostic -> String in
      var source = (diagnostic["source"] as? String ?? "").replacingOccurrences(
        of: "file://", with: "")
      if source.hasPrefix(root) { source.removeFirst(root.count) }
      let start = (diagnostic["range"] as? [String: Any])?["start"] as? [String: Any]
      let line = start?["line"] as? Int ?? 0
      let severity = diagnostic["severity"] as? String ?? "?"
      let summary = diagnostic["summary"] as? String ?? "?"
      return "  \(source):\(line): \(severity): \(summary)"
    }
    lines.sorted().forEach { print($0) }
    problems += serious.count
  } else {
    print("\(module): no diagnostics file at \(diagnosticsPath)")
    problems += 1
  }
}
exit(problems == 0 ? 0 : 1)
SWIFT
if ! swift "$work/CheckDocs.swift" "$out" "$work" "${modules[@]}"; then
  printf '\nbuild-docs: FAILED: fix the symbols and diagnostics listed above\n' >&2
  exit 1
fi

step "one site for every module"
"$docc" merge "$out/TinyDependency.doccarchive" "$out/TinyDependencyGraph.doccarchive" \
  "$out/TinyDependencyValidation.doccarchive" \
  "$out/TinyDependencyTesting.doccarchive" \
  "$out/TinyDependencyBuiltins.doccarchive" "$out/TinyDependencyLifecycle.doccarchive" \
  "$out/TinyDependencySwiftUI.doccarchive" \
  "$out/TinyDependencyCollections.doccarchive" "$out/TinyDependencyFactories.doccarchive" \
  --output-path "$out/site" \
  --synthesized-landing-page-name TinyDependency
rm -rf "$work"
printf '\nbuild-docs: done; serve %s/site (or one archive) with any static web server\n' "$out"
