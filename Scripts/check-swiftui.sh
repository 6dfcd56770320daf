#!/usr/bin/env bash
# Type-checks the SwiftUI adapter (Sources/StateStoreSwiftUI) and the sample app (Examples/MailApp)
# on a machine without Apple's SDKs, against the stand-in modules in Tests/SwiftUIStandIn and the
# built StateStoreHost module (SPEC §7).
#
# Each platform's branches are compiled against what that platform has, told apart as the sources
# tell them (`canImport`, never `os()`, so that every line is compiled by one configuration here):
#   ios      SwiftUI and UIKit (iPhone, iPad; tvOS and visionOS take the same branches)
#   macos    SwiftUI and AppKit
#   watchos  SwiftUI, UIKit and WatchKit
# each once in Swift 6 language mode and once with -default-isolation MainActor (as new app
# targets build). Any warning fails the check. CI runs it.
#
# What this cannot see: how SwiftUI and UIKit behave at run time (when `onChange` runs, how a sheet
# is presented, what iOS does with an expiring activity), API the stand-ins do not declare, and
# the SDK's own declarations where the stand-ins' copies are wrong (each cites the page it copies).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== build StateStoreHost (the modules the adapter imports)"
swift build --target StateStoreHost >/dev/null
modules="$(swift build --show-bin-path)/Modules"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

standin=Tests/SwiftUIStandIn
# Built with library evolution, as Apple's frameworks are, so that what a resilient module demands
# of its clients (an unknown case of a non-frozen enum, say) is demanded here too.
# Any warning fails, but the one Linux's Foundation causes: it is not built for library evolution
# (Apple's is), and the stand-ins name Foundation's types (NSObject, URL) as the SDK's do.
build_module() { # OUT NAME SOURCE
    local log=$1/$2.log
    swiftc -swift-version 6 -parse-as-library -enable-library-evolution -I "$1" \
        -module-name "$2" -emit-module -emit-module-path "$1/$2.swiftmodule" "$3" 2>"$log" || { cat "$log" >&2; exit 1; }
    if grep 'warning:' "$log" | grep -v "module 'Foundation' was not compiled with library evolution support"; then
        cat "$log" >&2
        exit 1
    fi
}

adapter=(Sources/StateStoreSwiftUI/*.swift)
# The adapter is a module of this package: SwiftPM builds its modules with the package's identity
# as their package name, which `package` declarations need: its folder's name, lowercased, made a
# C identifier (`wt-rooms` is `wt_rooms`, `2d` is `_2d`). The sample app is another package's
# module: it reaches the public API only.
package_name=$(basename "$PWD" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9_]/_/g' -e 's/^[0-9]/_&/')
sample=(Examples/MailApp/*.swift Examples/MailApp/Shared/*.swift)
# The share extension: a module of its own compiling the app's route file (MailShare.MailRoute).
share=(Examples/MailApp/ShareExtension/*.swift Examples/MailApp/Shared/*.swift)
for platform in ios macos watchos; do
    out=$work/$platform
    mkdir -p "$out"
    case $platform in
        ios) frameworks=(UIKit) ;;
        macos) frameworks=(AppKit) ;;
        watchos) frameworks=(UIKit WatchKit) ;;
    esac
    echo "== $platform: stand-in ${frameworks[*]} and SwiftUI"
    for framework in "${frameworks[@]}"; do build_module "$out" "$framework" "$standin/$framework.swift"; done
    build_module "$out" SwiftUI "$standin/SwiftUI.swift"

    common=(-typecheck -parse-as-library -warnings-as-errors -I "$out" -I "$modules" -I Sources/CSQLite)
    for mode in "" "-default-isolation MainActor"; do
        # shellcheck disable=SC2086
        swiftc -swift-version 6 $mode "${common[@]}" -package-name "$package_name" -module-name StateStoreSwiftUI \
            "${adapter[@]}"
    done
    echo "   the adapter type-checks: ${#adapter[@]} files, Swift 6 and -default-isolation MainActor"

    # The sample app, against the adapter's module as an app imports it.
    swiftc -swift-version 6 -parse-as-library -warnings-as-errors -I "$out" -I "$modules" -I Sources/CSQLite \
        -package-name "$package_name" -module-name StateStoreSwiftUI -emit-module -emit-module-path "$out/StateStoreSwiftUI.swiftmodule" \
        "${adapter[@]}"
    for mode in "" "-default-isolation MainActor"; do
        # shellcheck disable=SC2086
        swiftc -swift-version 6 $mode -typecheck -warnings-as-errors -I "$out" -I "$modules" -I Sources/CSQLite \
            -module-name MailApp "${sample[@]}"
    done
    swiftc -swift-version 6 -typecheck -warnings-as-errors -I "$modules" -I Sources/CSQLite -module-name MailShare \
        "${share[@]}"
    echo "   the sample app and its share extension type-check: ${#sample[@]} and ${#share[@]} files"
done
echo "SwiftUI adapter and sample app type-check for iOS, macOS and watchOS's branches, no warnings"
