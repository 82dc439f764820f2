#!/usr/bin/env bash
# Fails when Swift code uses an API newer than the package's minimums (macOS 10.15, iOS 13, tvOS 13,
# watchOS 6: where task-locals and the concurrency runtime begin) without saying so. Linux never
# checks availability; this reads the sources instead.
#
#   bash scripts/check-availability.sh [DIRECTORY...]   (default: Sources Tests)
#
# What it checks, line by line, after removing comments and string literals:
# - an OS API (`Clock`, `Duration`, `ContinuousClock`, `SuspendingClock`, `Task.sleep(for:)`,
#   `\.continuousClock`, `.timeLimit`, `Mutex`, `Atomic`, `_mangledTypeName` (macOS 11), the
#   string processing of macOS 13 that has names of its own (`Regex`, `firstRange(of:)`,
#   `replacing(_:with:)`, …), and every type the sources declare
#   with `@available(macOS …)`) must sit in a declaration or extension whose `@available`, or an
#   enclosing one's, or an enclosing `if #available` / `guard #available`, names a macOS version
#   at least as new as the API's, and iOS, tvOS and watchOS versions to match;
# - a compiler feature (`processExitsWith`, `Issue.record(…, severity:)`, `SendableMetatype`)
#   must sit inside `#if compiler(>=…)` of at least its version; exit tests also inside an
#   `#if os(…)` (they exist on macOS, Linux and Windows only).
# Code in a branch that Apple platforms never compile (`#else` of `#if canImport(Darwin)`, or
# `#if !canImport(Darwin)`) is skipped. It is a reading, not a compiler: a use it cannot see
# (a `Duration` only inferred, say) passes. scripts/availability-fixtures holds its test.
# Needs bash and a POSIX awk (mawk, BSD awk and gawk all do).
set -euo pipefail
cd "$(dirname "$0")/.."

directories=("$@")
if [ ${#directories[@]} -eq 0 ]; then directories=(Sources Tests); fi
files=$(find "${directories[@]}" -name '*.swift' -type f | LC_ALL=C sort)
if [ -z "$files" ]; then
  echo "check-availability: no Swift files in ${directories[*]}" >&2
  exit 2
fi

# Shared by both passes: strips comments and string literals from a line, keeping its shape.
strip='
function stripLine(line,    out, i, c, n, inString) {
  out = ""; n = length(line); inString = 0
  if (inBlockComment) {
    i = index(line, "*/")
    if (i == 0) return ""
    inBlockComment = 0; line = substr(line, i + 2); n = length(line)
  }
  if (inMultilineString) {
    i = index(line, "\"\"\"")
    if (i == 0) return ""
    inMultilineString = 0; line = substr(line, i + 3); n = length(line)
  }
  for (i = 1; i <= n; i++) {
    c = substr(line, i, 1)
    if (inString) {
      if (c == "\\") { i++; continue }
      if (c == "\"") { inString = 0; out = out "\"" }
      continue
    }
    if (substr(line, i, 3) == "\"\"\"") { inMultilineString = 1; return out }
    if (c == "\"") { inString = 1; out = out "\""; continue }
    if (substr(line, i, 2) == "//") return out
    if (substr(line, i, 2) == "/*") {
      rest = substr(line, i + 2); j = index(rest, "*/")
      if (j == 0) { inBlockComment = 1; return out }
      i = i + 1 + j + 1; continue
    }
    out = out c
  }
  return out
}
# The macOS-equivalent version an availability list guarantees: the lowest of what it says for
# macOS, iOS (minus 3), tvOS (minus 3) and watchOS (plus 4); 0 when one of them is missing.
function platformVersion(text, platform,    pattern, found) {
  pattern = platform " [0-9]+"
  if (!match(text, pattern)) return -1
  found = substr(text, RSTART + length(platform) + 1, RLENGTH - length(platform) - 1)
  return found + 0
}
function guaranteedLevel(text,    mac, ios, tv, watch, level) {
  mac = platformVersion(text, "macOS")
  ios = platformVersion(text, "iOS")
  tv = platformVersion(text, "tvOS")
  watch = platformVersion(text, "watchOS")
  if (mac < 0 || ios < 0 || tv < 0 || watch < 0) return 0
  level = mac
  if (ios - 3 < level) level = ios - 3
  if (tv - 3 < level) level = tv - 3
  if (watch + 4 < level) level = watch + 4
  return level
}
'

# Pass 1: the types Sources declares with `@available(macOS N …)`, with their level.
declared=$(
  # shellcheck disable=SC2086
  awk "$strip"'
    FNR == 1 { pending = 0; inBlockComment = 0; inMultilineString = 0 }
    {
      code = stripLine($0)
      if (code ~ /@available\(macOS/) {
        pending = guaranteedLevel(code)
      }
      if (pending > 0 && match(code, /(struct|class|enum|actor|protocol|typealias) [A-Za-z_][A-Za-z0-9_]*/)) {
        word = substr(code, RSTART, RLENGTH); sub(/^[a-z]+ /, "", word)
        print word, pending
        pending = 0
      } else if (code ~ /(func|var|let|init|extension|subscript|case) /) {
        pending = 0
      }
    }
  ' $(find Sources -name '*.swift' -type f | LC_ALL=C sort) </dev/null
)

# Pass 2: every use, checked against what encloses it.
# shellcheck disable=SC2086
DECLARED="$declared" awk "$strip"'
  BEGIN {
    declared = ENVIRON["DECLARED"]
    # The OS APIs by the macOS version that brought them (iOS, tvOS and watchOS alongside).
    apiCount = 0
    addAPI("(^|[^A-Za-z0-9_])(Clock|ContinuousClock|SuspendingClock|Duration|DurationProtocol|InstantProtocol)([^A-Za-z0-9_]|$)", 13, "Clock and Duration (macOS 13, iOS 16, tvOS 16, watchOS 9)")
    addAPI("sleep\\((for|until):", 13, "sleep(for:) and sleep(until:) (macOS 13, iOS 16, tvOS 16, watchOS 9)")
    addAPI("\\\\\\.(continuousClock|suspendingClock)", 13, "the clock dependencies (macOS 13, iOS 16, tvOS 16, watchOS 9)")
    addAPI("\\.timeLimit\\(", 13, "the .timeLimit trait (macOS 13, iOS 16, tvOS 16, watchOS 9)")
    addAPI("(^|[^A-Za-z0-9_])(Mutex|Atomic|AtomicRepresentable|atomicMemoryFence)([^A-Za-z0-9_]|$)", 15, "Synchronization (macOS 15, iOS 18, tvOS 18, watchOS 11)")
    addAPI("(^|[^A-Za-z0-9_])_mangledTypeName\\(", 11, "_mangledTypeName (macOS 11, iOS 14, tvOS 14, watchOS 7)")
    addAPI("(^|[^A-Za-z0-9_])(Regex|RegexComponent)([^A-Za-z0-9_]|$)|firstRange\\(of:|\\.ranges\\(of:|trimmingPrefix\\(|\\.replacing\\(|wholeMatch\\(|prefixMatch\\(", 13, "string processing (macOS 13, iOS 16, tvOS 16, watchOS 9)")
    n = split(declared, lines, "\n")
    for (i = 1; i <= n; i++) {
      if (split(lines[i], parts, " ") == 2) {
        addAPI("(^|[^A-Za-z0-9_])" parts[1] "([^A-Za-z0-9_]|$)", parts[2] + 0, parts[1] " (declared with @available(macOS " parts[2] ", …))")
      }
    }
    # Compiler features: pattern, first Swift version, needs an os guard too.
    featureCount = 0
    addFeature("processExitsWith", "6.2", 1, "exit tests")
    addFeature("severity:", "6.3", 0, "Issue.record(_:severity:)")
    addFeature("(^|[^A-Za-z0-9_])SendableMetatype([^A-Za-z0-9_]|$)", "6.2", 0, "SendableMetatype")
    failures = 0
  }
  function addAPI(pattern, level, name) {
    apiCount++; apiPattern[apiCount] = pattern; apiLevel[apiCount] = level; apiName[apiCount] = name
  }
  function addFeature(pattern, version, needsOS, name) {
    featureCount++; featurePattern[featureCount] = pattern; featureVersion[featureCount] = version
    featureNeedsOS[featureCount] = needsOS; featureName[featureCount] = name
  }
  function report(message) {
    printf "%s:%d: %s\n", FILENAME, FNR, message
    failures++
  }
  # The version in `compiler(>=X.Y)`, or 0.
  function compilerVersion(condition,    found) {
    if (!match(condition, /compiler\(>= *[0-9]+\.[0-9]+/)) return 0
    found = substr(condition, RSTART, RLENGTH); sub(/compiler\(>= */, "", found)
    return found + 0
  }
  # Whether the branches of the #if stack that enclose this line guarantee compiler >= version,
  # an os() condition, or exclude Apple platforms.
  function guardedCompiler(version,    i) {
    for (i = 1; i <= ifDepth; i++) if (!ifNegated[i] && compilerVersion(ifCondition[i]) >= version) return 1
    return 0
  }
  function guardedOS(    i) {
    for (i = 1; i <= ifDepth; i++) if (!ifNegated[i] && ifCondition[i] ~ /os\(/) return 1
    return 0
  }
  function excludesApple(    i) {
    for (i = 1; i <= ifDepth; i++) if (ifAppleExcluded[i]) return 1
    return 0
  }
  FNR == 1 {
    files++
    depth = 0; scopeLevel[0] = 0; pending = 0; ifDepth = 0
    inBlockComment = 0; inMultilineString = 0
  }
  {
    code = stripLine($0)
    trimmed = code; sub(/^[ \t]+/, "", trimmed)
    # Conditional compilation.
    if (trimmed ~ /^#if /) {
      condition = substr(trimmed, 5)
      ifDepth++; ifCondition[ifDepth] = condition; ifNegated[ifDepth] = 0
      ifAppleFirst[ifDepth] = (condition ~ /^(canImport\((Darwin|MachO)\)|os\(macOS\))/)
      ifAppleExcluded[ifDepth] = (condition ~ /^!\(?canImport\(Darwin\)/ || condition ~ /^os\(Linux\) *$/)
      next
    }
    if (trimmed ~ /^#elseif /) {
      ifCondition[ifDepth] = substr(trimmed, 9); ifNegated[ifDepth] = 0
      ifAppleExcluded[ifDepth] = ifAppleFirst[ifDepth]
      next
    }
    if (trimmed ~ /^#else/) {
      ifNegated[ifDepth] = 1
      ifAppleExcluded[ifDepth] = ifAppleFirst[ifDepth]
      next
    }
    if (trimmed ~ /^#endif/) { if (ifDepth > 0) ifDepth--; next }
    # Availability that this line declares.
    if (code ~ /@available\((macOS|iOS|tvOS|watchOS)/) {
      level = guaranteedLevel(code)
      if (level > pending) pending = level
    }
    if (code ~ /#available\(/) {
      level = guaranteedLevel(code)
      if (code ~ /guard[ \t]+#available/) {
        if (level > scopeLevel[depth]) scopeLevel[depth] = level
      } else if (level > pending) {
        pending = level
      }
    }
    effective = scopeLevel[depth]
    if (pending > effective) effective = pending
    if (!excludesApple()) {
      for (i = 1; i <= apiCount; i++) {
        if (code ~ apiPattern[i] && effective < apiLevel[i]) {
          report("uses " apiName[i] " without an @available (or if #available) at macOS " apiLevel[i] " or later on it or an enclosing declaration")
        }
      }
    }
    for (i = 1; i <= featureCount; i++) {
      if (code ~ featurePattern[i]) {
        if (!guardedCompiler(featureVersion[i] + 0)) {
          report("uses " featureName[i] " (Swift " featureVersion[i] ") outside #if compiler(>=" featureVersion[i] ")")
        } else if (featureNeedsOS[i] && !guardedOS()) {
          report("uses " featureName[i] " outside an #if os(...) guard (macOS, Linux and Windows only)")
        }
      }
    }
    # Braces: a declaration or block opened here inherits the availability in effect.
    parens = 0
    n = length(code)
    for (i = 1; i <= n; i++) {
      c = substr(code, i, 1)
      if (c == "(") parens++
      else if (c == ")") parens--
      else if (c == "{") {
        depth++; scopeLevel[depth] = effective; pending = 0
      } else if (c == "}") {
        if (depth > 0) depth--
        effective = scopeLevel[depth]
      }
    }
    # A declaration that ended on this line without a body takes its attribute with it.
    if (pending > 0 && code ~ /(^|[ \t])(func|var|let|init|case|typealias|subscript)[ \t(]/ && parens <= 0 && code !~ /[,(:=]$/) {
      pending = 0
    }
  }
  END {
    if (failures > 0) {
      printf "check-availability: %d use(s) of newer APIs without availability; see above.\n", failures
      exit 1
    }
    printf "check-availability: %d files, every use of a newer API is marked\n", files
  }
' $files
