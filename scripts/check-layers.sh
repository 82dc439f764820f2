#!/usr/bin/env bash
# Keeps the core's rooms pointing one way and within budget (DESIGN.md, decision 19). Fails with
# file:line when:
#  1. a platform `#if` (`os(`, `canImport(Darwin|Glibc|Musl)`, `TINY_DEPENDENCY_`) appears
#     outside Speed/ and Platform/;
#  2. Speed/ or Platform/ names a type declared in Container/ or Build/;
#  3. Conveniences/ or Migration/ uses a non-public name of Container/, Build/, Speed/, Platform/
#     or of the top-level files: they see the public API, Seam/ and Adapters/ only;
#  4. the seam: Container/, Build/, Seam/ or Diagnostics/ names a type of a layer above them, declared in
#     Adapters/, EntryPoint/, Conveniences/, Migration/ or in another product of the package
#     (Sources/*/ beside this module), so that a new feature never edits Container/;
#  5. a key's value (`defaultValue`, `testValue`, `previewValue`, `liveValue`) or the library
#     reads `DependencyValues.current` where the build frame is meant (`current.frame`);
#  6. Container/, Build/ or Diagnostics/ binds the task-local (only the binding layer, `DependencyValues.swift`,
#     does);
#  7. the wrapper (`Dependency.swift`) reaches into a storage instead of asking the container;
#  8. the budgets, in code lines (`grep -vE '^\s*$|^\s*//'`): the afternoon read (the top-level
#     API files, Container/, Build/ and Seam/) at most 1,800; the module at most its ceiling,
#     3,850, on the way to its target of 3,500;
#  9. the core map (README.md beside the module's files) leaves a file out.
# Usage: scripts/check-layers.sh [module directory [other products' directory]]; exits 1 with
# each break on its own line.
set -euo pipefail
root=${1:-"$(dirname "$0")/../Sources/TinyDependency"}
products=$(cd "${2:-$root/..}" && pwd)
module=$(basename "$(cd "$root" && pwd)")
cd "$root"

failures=0
fail() {
  printf '%s\n' "$*" >&2
  failures=$((failures + 1))
}

# Code lines of the given files as file:line:text, with comment lines and string-only lines
# left out.
code() { grep -nHvE '^\s*//' "$@" 2>/dev/null || true; }

files_in() { find "$@" -name '*.swift' 2>/dev/null | sort; }
top=$(find . -maxdepth 1 -name '*.swift' | sort)
lower=$(files_in Container Build Diagnostics Speed Platform)
upper=$(files_in Conveniences Migration)
core=$(files_in Container Build Seam)
# The storage's side of the seam: the afternoon read's rooms and the words of its stops.
below_seam=$(files_in Container Build Seam Diagnostics)

# 1. Platform conditions.
while IFS= read -r hit; do
  [ -n "$hit" ] && fail "$hit: platform #if outside Speed/ and Platform/ (move the variant into a type there)"
done < <(
  files=$(find . -name '*.swift' -not -path './Speed/*' -not -path './Platform/*' | sort)
  # shellcheck disable=SC2086
  code $files | grep -E ':\s*#(if|elseif)\b.*(os\(|canImport\((Darwin|Glibc|Musl)\)|TINY_DEPENDENCY_)' || true
)

# Names declared in files, at the top level or as members (indented two spaces at most).
declared() {
  # shellcheck disable=SC2068
  grep -hE "^( {0,2})$1" $2 2>/dev/null \
    | sed -nE "s/^ {0,2}$1([A-Za-z_][A-Za-z0-9_]*).*/\\2/p" | sort -u
}
types='((@[A-Za-z_()]+ )*((package|internal|final|indirect|public|open|private|fileprivate) )*)(class|struct|enum|protocol|actor|typealias) '

# 2. Speed/ and Platform/ name no container type.
container_types=$(grep -hE "^${types}" $(files_in Container Build Diagnostics) \
  | sed -nE "s/^${types}([A-Za-z_][A-Za-z0-9_]*).*/\\6/p" | sort -u)
for name in $container_types; do
  while IFS= read -r hit; do
    [ -n "$hit" ] && fail "$hit: Speed/ and Platform/ must not name the container's type $name"
  done < <(code $(files_in Speed Platform) | grep -E "\b${name}\b" || true)
done

# 3. Conveniences/ and Migration/ use public API and the hooks only.
member='((@[A-Za-z_()]+ )*((package|static|final|mutating|nonisolated|override|lazy|weak|unowned|class|convenience) )*)(func|var|let|class|struct|enum|protocol|typealias|actor) '
hidden=$(
  # shellcheck disable=SC2086
  grep -hE "^ {0,2}${member}" $top $lower \
    | sed -nE "s/^ {0,2}${member}([A-Za-z_][A-Za-z0-9_]*).*/\\6/p" | sort -u
)
public_names=$(
  grep -rhE "^\s*(@[A-Za-z_()]+ )*(public|open|package) " --include='*.swift' . \
    | grep -oE '(func|var|let|class|struct|enum|protocol|typealias|actor|case) [A-Za-z_][A-Za-z0-9_]*' \
    | awk '{print $2}' | sort -u
)
hook_names=$(
  grep -rhE '(func|var|let|class|struct|enum|protocol|typealias|actor) [A-Za-z_]' --include='*.swift' Seam Adapters Platform \
    | grep -oE '(func|var|let|class|struct|enum|protocol|typealias|actor) [A-Za-z_][A-Za-z0-9_]*' \
    | awk '{print $2}' | sort -u
)
own_names=$(
  # shellcheck disable=SC2086
  grep -hoE '(func|var|let|class|struct|enum|protocol|typealias|actor|case) [A-Za-z_][A-Za-z0-9_]*' $upper \
    | awk '{print $2}' | sort -u
)
# Words the standard library uses too, which a line of a string or an accessor may hold.
common='get set read isEmpty with parent thread Value'
forbidden=$(comm -23 <(echo "$hidden") <(printf '%s\n' "$public_names" "$hook_names" "$own_names" $common | sort -u))
for name in $forbidden; do
  while IFS= read -r hit; do
    [ -n "$hit" ] && fail "$hit: Conveniences/ and Migration/ use public API, Seam/ and Adapters/ only, not $name"
  done < <(code $upper | grep -E "([^A-Za-z0-9_\"]|^)${name}\b" | grep -vE "\"[^\"]*\b${name}\b[^\"]*\"" || true)
done

# 4. The seam: the storage and the build name no type of a layer above them.
above_files=$(files_in Adapters EntryPoint Conveniences Migration)
other_products=$(find "$products" -mindepth 2 -name '*.swift' -not -path "$products/$module/*" 2>/dev/null | sort)
# shellcheck disable=SC2086
above_types=$(
  { grep -hE "^\s*${types}" $above_files 2>/dev/null; grep -hE "^\s*${types}" $other_products 2>/dev/null; } \
    | sed -nE "s/^\s*${types}([A-Za-z_][A-Za-z0-9_]*).*/\\6/p" | sort -u
)
# Names the core declares itself (a product may shadow one, as a test double does).
core_types=$(grep -hE "^\s*${types}" $below_seam $top $(files_in Speed Platform) 2>/dev/null \
  | sed -nE "s/^\s*${types}([A-Za-z_][A-Za-z0-9_]*).*/\\6/p" | sort -u)
# And the names of its generic parameters (`<Key: DependencyKey>`).
# shellcheck disable=SC2086
core_generics=$(grep -ohE '<[A-Z][A-Za-z0-9_]*[:,>]' $below_seam $top 2>/dev/null | tr -d '<:,>' | sort -u)
own=$(printf '%s\n' $core_types $core_generics | sort -u)
for name in $(comm -23 <(echo "$above_types") <(echo "$own")); do
  while IFS= read -r hit; do
    [ -n "$hit" ] && fail "$hit: the storage and the build name no type of a layer above the seam, not $name (attach it through DependencyObserver or an attachment)"
  done < <(code $below_seam | sed -E 's/"[^"]*"//g' | grep -E "([^A-Za-z0-9_]|^)${name}\b" || true)
done

# 5. A build reads through its frame, not `DependencyValues.current`.
while IFS= read -r hit; do
  [ -n "$hit" ] && fail "$hit: a build reads its frame (BuildFrame.innermost), not DependencyValues.current"
done < <(
  # shellcheck disable=SC2046
  code $(find . -name '*.swift' | sort) | grep -E 'current\??\.frame\b' || true
  for file in $(find . -name '*.swift' | sort); do
    awk -v file="$file" '
      /^[[:space:]]*\/\// { next }
      /static (var|func) (defaultValue|testValue|previewValue|liveValue)[^A-Za-z0-9_]/ { inside = 1 }
      inside {
        if ($0 ~ /DependencyValues\.current/) printf "%s:%d:%s\n", file, NR, $0
        opened += gsub(/\{/, "{"); opened -= gsub(/\}/, "}")
        if (opened <= 0 && $0 ~ /\}/) { inside = 0; opened = 0 }
      }
    ' "$file"
  done
)

# 6. Only the binding layer binds the task-local.
while IFS= read -r hit; do
  [ -n "$hit" ] && fail "$hit: the container never binds the task-local (call DependencyValues.bind)"
done < <(code $(files_in Container Build Diagnostics) | grep -E 'boundLocal|TaskLocal' || true)

# 7. The wrapper asks the container; it does not read storages.
while IFS= read -r hit; do
  [ -n "$hit" ] && fail "$hit: the wrapper reads through DependencyValues and CapturedScope, not a storage"
done < <(code Dependency.swift | grep -E '\bstorage\b|\bserial\b' || true)

# 9. The core map names every file.
if [ -f README.md ]; then
  for file in $(find . -name '*.swift' | sed 's|^\./||' | sort); do
    grep -qF "\`$file\`" README.md || fail "./$file:0: missing from the core map (README.md): add a row for it"
  done
fi

# 8. Budgets.
count() { cat "$@" 2>/dev/null | grep -cvE '^\s*$|^\s*//' || true; }
# shellcheck disable=SC2086
afternoon=$(count $top $core)
# shellcheck disable=SC2046
whole=$(count $(find . -name '*.swift'))
if [ "$afternoon" -gt 1800 ]; then
  fail "./Container/:0: the afternoon read (top-level files, Container/, Build/, Seam/) is $afternoon code lines, over 1,800: move what is not the storage above the seam"
fi
# The module's target is 3,500 (DESIGN.md, decision 19), not met yet: until it is, the ceiling
# below holds what was reached and fails on any growth past it. (3,850 until a view's
# `@Dependency` read its nearest modifier, which only a field of the wrapper can do: +27 lines,
# Platform/ViewEnvironment.swift and Adapters/ViewScope.swift.)
module_ceiling=${MODULE_CEILING:-3860}
if [ "$whole" -gt "$module_ceiling" ]; then
  fail "./$module/:0: the module is $whole code lines, over its ceiling of $module_ceiling (target 3,500): move a feature to a product of its own"
fi

if [ "$failures" -gt 0 ]; then
  echo "check-layers: $failures break(s) of the core's direction (DESIGN.md, decision 19)" >&2
  exit 1
fi
echo "check-layers: the core's layers point one way; afternoon read $afternoon code lines (<= 1,800), module $whole (ceiling $module_ceiling, target 3,500)"
