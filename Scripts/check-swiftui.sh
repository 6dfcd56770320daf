#!/usr/bin/env bash
# Type-checks the SwiftUI adapter (Sources/StateStoreSwiftUI) on a machine without Apple's SDKs,
# against the stand-in SwiftUI module in Tests/SwiftUIStandIn and the built StateStoreHost module:
# once in Swift 6 language mode, once with -default-isolation MainActor (as new app targets build).
# Any warning fails the check. CI runs it (SPEC §7).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== build StateStoreHost (the modules the adapter imports)"
swift build --target StateStoreHost >/dev/null
modules="$(swift build --show-bin-path)/Modules"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== the stand-in SwiftUI module"
# Built with library evolution, as Apple's SwiftUI is, so that what a resilient module demands of
# its clients (an unknown case of a non-frozen enum, say) is demanded here too.
swiftc -swift-version 6 -parse-as-library -enable-library-evolution -warnings-as-errors \
    -module-name SwiftUI -emit-module -emit-module-path "$work/SwiftUI.swiftmodule" \
    Tests/SwiftUIStandIn/SwiftUI.swift

sources=(Sources/StateStoreSwiftUI/*.swift)
common=(-typecheck -parse-as-library -warnings-as-errors -module-name StateStoreSwiftUI
    -I "$work" -I "$modules" -I Sources/CSQLite)

echo "== the adapter, Swift 6 language mode"
swiftc -swift-version 6 "${common[@]}" "${sources[@]}"

echo "== the adapter, Swift 6 with -default-isolation MainActor"
swiftc -swift-version 6 -default-isolation MainActor "${common[@]}" "${sources[@]}"

echo "SwiftUI adapter type-checks: ${#sources[@]} files, no warnings"
