#!/usr/bin/env bash
# Type-checks the SwiftUI adapter (Sources/StateStoreSwiftUI) and the sample app (Examples/MailApp)
# on a machine without Apple's SDKs, against the stand-in modules in Tests/SwiftUIStandIn and the
# built StateStoreHost module.
#
# Each platform's branches are compiled against what that platform has, told apart as the sources
# tell them (`canImport`, never `os()`, so that every line is compiled by one configuration here):
#   ios      SwiftUI and UIKit (iPhone, iPad, Mac Catalyst; tvOS and visionOS take the same
#            branches, and the stand-ins' API is the same there)
#   macos    SwiftUI and AppKit
#   watchos  SwiftUI, UIKit and WatchKit
# each once in Swift 6 language mode and once with -default-isolation MainActor (as new app
# targets build). Any warning fails the check. CI runs it.
#
# The stand-ins are as strict as each platform's SDK: built with `-D STANDIN_IOS`, `-D
# STANDIN_MACOS` or `-D STANDIN_WATCHOS`, they mark unavailable what that platform lacks (a Linux
# compiler enforces no `@available(watchOS, unavailable)` itself): in the watchOS configuration
# UIKit has no UIApplication, UIResponder, UIScene, UISceneSession or UIView, and SwiftUI no
# UIViewRepresentable; in the macOS one there is no UIKit, no UIViewRepresentable and no
# `ProcessInfo.performExpiringActivity`.
#
#   Scripts/check-swiftui.sh               the adapter and the sample app, in every configuration
#   Scripts/check-swiftui.sh --self-test   a file using UIApplication, UIView and
#                                          UIViewRepresentable must fail the watchOS and macOS
#                                          configurations, each use reported, and type-check in
#                                          the iOS one
#
# What this cannot see: how SwiftUI and UIKit behave at run time (when `onChange` runs, how a sheet
# is presented, what iOS does with an expiring activity), API the stand-ins do not declare, and
# the SDK's own declarations where the stand-ins' copies are wrong (each cites the page it copies).
set -euo pipefail
cd "$(dirname "$0")/.."

self_test=false
case "${1-}" in
    "") ;;
    --self-test) self_test=true ;;
    *)
        echo "usage: Scripts/check-swiftui.sh [--self-test]" >&2
        exit 64
        ;;
esac

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
build_module() { # OUT NAME SOURCE PLATFORM
    local log=$1/$2.log platform
    platform=$(echo "$4" | tr '[:lower:]' '[:upper:]')
    swiftc -swift-version 6 -parse-as-library -enable-library-evolution -I "$1" -D "STANDIN_$platform" \
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
# The second sample: the recipe browser (three navigation experiences), its own app module.
recipes=(Examples/RecipeBrowser/*.swift)
# The share extension: a module of its own compiling the app's route file (MailShare.MailRoute).
share=(Examples/MailApp/ShareExtension/*.swift Examples/MailApp/Shared/*.swift)
# The self-test's plant: UIKit code an iOS app compiles, which watchOS and macOS must refuse.
self_test_configuration() { # PLATFORM OUT
    local platform=$1 out=$2 plant=$work/Plant.swift log=$work/plant.log status=0 use
    cat >"$plant" <<'SWIFT'
import SwiftUI
import UIKit

@MainActor func plantedApplication() -> Set<UISceneSession> { UIApplication.shared.openSessions }
@MainActor final class PlantedView: UIView {}
struct PlantedRepresentable: UIViewRepresentable {
    func makeUIView(context: Context) -> PlantedView { PlantedView() }
    func updateUIView(_ view: PlantedView, context: Context) {}
}
SWIFT
    swiftc -swift-version 6 -typecheck -parse-as-library -I "$out" -module-name Plant "$plant" >"$log" 2>&1 || status=$?
    case $platform in
        ios)
            if [ $status != 0 ]; then
                cat "$log" >&2
                echo "error: the plant does not type-check in the iOS configuration: the stand-ins are broken" >&2
                exit 1
            fi
            ;;
        watchos)
            for use in "'UIApplication' is unavailable" "'UIView' is unavailable" "'UIViewRepresentable' is unavailable"; do
                if ! grep -q -F "$use" "$log"; then
                    cat "$log" >&2
                    echo "error: the watchOS configuration does not report $use" >&2
                    exit 1
                fi
            done
            ;;
        macos)
            # No UIKit at all: the import itself fails.
            if [ $status = 0 ] || ! grep -q "no such module 'UIKit'" "$log"; then
                cat "$log" >&2
                echo "error: the macOS configuration accepts UIKit code" >&2
                exit 1
            fi
            ;;
    esac
    echo "   self-test: the plant $([ $status = 0 ] && echo type-checks || echo "fails, $(grep -c 'error:' "$log") error(s)")"
}

# Compiler help for a route type, as an app's developer meets it: declaring the conformance makes a
# type of Codable members Codable; a member that is not is named, at the conformance's line.
if ! $self_test; then
    echo "== compiler help: a route type's conformance"
    cat >"$work/Routes.swift" <<'SWIFT'
import StateStoreHost

struct Recipe: Hashable {
    var name: String
}

extension Recipe: RouteRepresentable {}

struct Ingredient: Hashable {}

struct Dish: Hashable {
    var ingredient: Ingredient
}

extension Dish: RouteRepresentable {}

@MainActor func show(_ session: WindowSession) {
    session.window("w", as: Recipe.self).push(Recipe(name: "soup"))
}
SWIFT
    if swiftc -swift-version 6 -typecheck -parse-as-library -I "$modules" -I Sources/CSQLite "$work/Routes.swift" \
        >"$work/routes.log" 2>&1; then
        echo "error: a route type with a member that is not Codable type-checks" >&2
        exit 1
    fi
    errors=$(grep -E '^[^ ].*: error:' "$work/routes.log" | sort -u)
    if [ "$(echo "$errors" | cut -d: -f2 | sort -u)" != 15 ] || ! grep -q "because 'Ingredient' does not conform" "$work/routes.log"; then
        cat "$work/routes.log" >&2
        echo "error: a route type's missing Codable is not reported at its conformance (line 15), naming the member's type" >&2
        exit 1
    fi
    echo "   Recipe's conformance makes it Codable; Dish's is refused at its conformance, naming Ingredient"
fi

for platform in ios macos watchos; do
    out=$work/$platform
    mkdir -p "$out"
    case $platform in
        ios) frameworks=(UIKit) ;;
        macos) frameworks=(AppKit) ;;
        watchos) frameworks=(UIKit WatchKit) ;;
    esac
    echo "== $platform: stand-in ${frameworks[*]} and SwiftUI"
    for framework in "${frameworks[@]}"; do build_module "$out" "$framework" "$standin/$framework.swift" $platform; done
    build_module "$out" SwiftUI "$standin/SwiftUI.swift" $platform

    common=(-typecheck -parse-as-library -warnings-as-errors -I "$out" -I "$modules" -I Sources/CSQLite)
    if $self_test; then
        self_test_configuration "$platform" "$out"
        continue
    fi
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
    for mode in "" "-default-isolation MainActor"; do
        # shellcheck disable=SC2086
        swiftc -swift-version 6 $mode -typecheck -warnings-as-errors -I "$out" -I "$modules" -I Sources/CSQLite \
            -module-name RecipeBrowser "${recipes[@]}"
    done
    echo "   the recipe browser type-checks: ${#recipes[@]} files"

    # StateStoreHost's Apple branches (its expiring activity, sudden termination, the App Group
    # container, the unified log): its sources again, with this platform's frameworks, Apple's
    # Foundation additions (imported implicitly, as Apple's Foundation has them), `os` and an empty
    # `Darwin` on the include path, so that `canImport(UIKit)`, `canImport(AppKit)`,
    # `canImport(Darwin)` and `canImport(os)` hold as on that platform.
    for extra in FoundationApple os Darwin; do build_module "$out" "$extra" "$standin/$extra.swift" $platform; done
    host=()
    while IFS= read -r file; do host+=("$file"); done < <(find Sources/StateStoreHost -name '*.swift' | sort)
    swiftc -swift-version 6 -typecheck -parse-as-library -warnings-as-errors -I "$out" -I "$modules" -I Sources/CSQLite \
        -package-name "$package_name" -module-name StateStoreHost -D "STANDIN_$(echo "$platform" | tr '[:lower:]' '[:upper:]')" \
        -Xfrontend -import-module -Xfrontend FoundationApple "${host[@]}"
    echo "   StateStoreHost's Apple branches type-check: ${#host[@]} files"
done
if $self_test; then
    echo "SwiftUI stand-in self-test: UIApplication, UIView and UIViewRepresentable fail the watchOS" \
        "and macOS configurations and type-check in the iOS one"
    exit 0
fi
echo "SwiftUI adapter and sample app type-check for iOS, macOS and watchOS's branches, no warnings"
