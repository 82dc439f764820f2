#!/usr/bin/env bash
# Type-checks the Foundation-free products (TinyDependency, TinyDependencyConcurrency,
# TinyDependencyFace, TinyDependencyCollections, TinyDependencyFactories, TinyDependencyGraph,
# TinyDependencyLifecycle, and TinyDependencySwiftUI against its SwiftUI stand-in, whose
# declarations carry the SDK's availability) for macOS 10.15 and iOS 13,
# the package's floors, with this Linux toolchain: the compiler checks availability against the
# standard library's own annotations, which the Linux toolchain's module interfaces carry.
#
#   bash scripts/typecheck-apple-floor.sh
#
# How: the toolchain's interfaces of Swift, _Concurrency, _StringProcessing and Synchronization
# are copied into a resource directory for x86_64-apple-macos and -ios-simulator (target flag
# changed, Linux-only bodies and back-deployment attributes removed: they are not type-checked
# here), and Darwin and Dispatch are the stubs in scripts/apple-floor (names and signatures the
# code uses, all older than the floors). Three pointer conversions this standard library cannot
# make are spelled out in a copy of the sources. It checks types and availability, not Darwin's
# real headers and not the products that import Foundation, Testing or XCTest.
# Its first run builds the standard library from its interface (a few minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

work=.build/apple-floor
interfaces=$(dirname "$(dirname "$(command -v swift)")")/lib/swift/linux
if [ ! -f "$interfaces/Swift.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" ]; then
  echo "typecheck-apple-floor: skipped, this toolchain has no x86_64 Linux interfaces"
  exit 0
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
resources=$work/resources
if [ ! -d "$resources/iphonesimulator" ]; then
  rm -rf "$resources"
  mkdir -p "$resources/macosx" "$resources/iphonesimulator"
  ln -s "$(dirname "$interfaces")/shims" "$resources/shims"
  for module in Swift _Concurrency _StringProcessing Synchronization SwiftOnoneSupport; do
    for platform in macosx:macos:macos10.14 iphonesimulator:ios-simulator:ios12.0-simulator; do
      IFS=: read -r folder triple target <<<"$platform"
      mkdir -p "$resources/$folder/$module.swiftmodule"
      sed -e "1,5s/-target x86_64-unknown-linux-gnu/-target x86_64-apple-$target/" \
        -e '1,5s/ -static / /' \
        -e 's/^\([[:space:]]*\)@backDeployed(before: [^)]*)/\1/' \
        -e 's/^import Glibc$//' \
        -e 's/_swift_stdlib_gettid()/UInt32(0)/g' \
        "$interfaces/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" \
        >"$resources/$folder/$module.swiftmodule/x86_64-apple-$triple.swiftinterface"
      if [ "$module" != Swift ]; then
        sed -i '1,5s/swift-module-flags: /swift-module-flags: -disable-availability-checking /' \
          "$resources/$folder/$module.swiftmodule/x86_64-apple-$triple.swiftinterface"
      fi
    done
  done
fi

failed=0
for target in x86_64-apple-macos10.15 x86_64-apple-ios13.0-simulator; do
  echo "== $target"
  stubs=$work/$target/stubs
  modules=$work/$target/modules
  sources=$work/$target/sources
  rm -rf "$modules" "$sources"
  mkdir -p "$stubs" "$modules"
  cp -R Sources "$sources"
  cp -R Tests/SwiftUIStandIn "$sources/SwiftUIStandIn"
  sed -i 's/\.fromOpaque(raw)/.fromOpaque(UnsafeRawPointer(raw))/' \
    "$sources/TinyDependency/Platform/Platform.swift" \
    "$sources/TinyDependency/Build/BuildFrame+Thread.swift" \
    "$sources/TinyDependencyGraph/TraceThreads.swift"
  sed -i 's/Array(UnsafeBufferPointer(start: \$0, count: length))/_ = $0; return [UInt8]()/' \
    "$sources/TinyDependency/Platform/Platform.swift"
  flags=(-target "$target" -resource-dir "$resources" -module-cache-path "$work/cache"
    -I "$stubs" -I "$modules" -swift-version 6 -parse-as-library -package-name TinyDependency
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
    -enable-upcoming-feature MemberImportVisibility -suppress-warnings)
  for stub in Darwin Dispatch; do
    swiftc -emit-module -module-name "$stub" "${flags[@]}" -swift-version 5 "scripts/apple-floor/$stub.swift" \
      -emit-module-path "$stubs/$stub.swiftmodule" 2>&1 | grep -v 'no such SDK\|sysroot' || true
  done
  # The stand-in first: the core and the SwiftUI product are compiled with
  # TINY_DEPENDENCY_SWIFTUI_STAND_IN, the code they compile where SwiftUI exists (the wrapper as
  # a `DynamicProperty`, the environment key they share), against it.
  for module in SwiftUIStandIn TinyDependency TinyDependencyConcurrency TinyDependencyFace \
    TinyDependencyCollections TinyDependencyFactories TinyDependencyGraph \
    TinyDependencyLifecycle TinyDependencySwiftUI; do
    output=$(cd "$sources/$module" && swiftc -emit-module -module-name "$module" "${flags[@]}" \
      -D TINY_DEPENDENCY_SWIFTUI_STAND_IN \
      $(find . -name '*.swift' | LC_ALL=C sort) -emit-module-path "$modules/$module.swiftmodule" \
      2>&1 | grep -v 'no such SDK\|sysroot' || true)
    if grep -q 'error:' <<<"$output"; then
      printf '%s\n' "$output" | grep -E '^[^ ].*error:' | sed "s|^|Sources/$module/|" >&2
      failed=1
    else
      echo "$module: no availability errors"
    fi
  done
done
if [ "$failed" -ne 0 ]; then
  echo "typecheck-apple-floor: the floors' compiler rejected the code above" >&2
  exit 1
fi
