#!/usr/bin/env bash
# Builds every library target with library evolution, as Xcode builds a framework for
# distribution (BUILD_LIBRARY_FOR_DISTRIBUTION: an XCFramework, or a binary that depends on one),
# and verifies the module interface each emits by compiling a module from it, as a client's
# compiler does.
#
#   Scripts/check-interfaces.sh               StateStore, StateStoreHost, StateStoreSwiftUI
#   Scripts/check-interfaces.sh --self-test   plants a public type named like its module in a
#                                             copy of StateStore's sources and sees the check fail
#
# For each target: `swiftc -emit-module -enable-library-evolution -emit-module-interface-path`
# (Swift 6 language mode, whole module, the package's name as SwiftPM gives it), then
# `swift-frontend -typecheck-module-from-interface` on the .swiftinterface, finding the modules it
# imports from their interfaces only (never the binary modules the build emitted), so that each
# interface is checked as a client reads it. StateStoreSwiftUI is built against the stand-in
# SwiftUI and UIKit of Tests/SwiftUIStandIn (the iOS configuration; Scripts/check-swiftui.sh),
# so its `#if canImport(SwiftUI)` code is compiled.
#
# Any error or warning fails, but the one Linux's Foundation causes (not built for library
# evolution here; Apple's is): among them the compiler's warning that a public type shadows its
# module, whose interface then fails to compile ("'X' is not a member type of class 'M.M'").
#
# What it cannot see: Apple's SDK modules (Foundation, Dispatch, SwiftUI and UIKit are Linux's or
# the stand-ins'); `@inlinable` bodies are type-checked, but their code is not generated.
set -euo pipefail
cd "$(dirname "$0")/.."

self_test=false
case "${1-}" in
    "") ;;
    --self-test) self_test=true ;;
    *)
        echo "usage: Scripts/check-interfaces.sh [--self-test]" >&2
        exit 64
        ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The package's name for `package` declarations, as SwiftPM derives it from the folder's name.
package_name=$(basename "$PWD" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9_]/_/g' -e 's/^[0-9]/_&/')
allowed="module '(Foundation|Dispatch)' was not compiled with library evolution support"

# build MODULE OUT SOURCE...: the module with library evolution, its interface in OUT/interfaces
# (where the verification of the modules that import it looks), its binary module in OUT/modules.
build() {
    local module=$1 out=$2 log
    shift 2
    log=$out/$module.emit.log
    mkdir -p "$out/modules" "$out/interfaces"
    if ! swiftc -emit-module -enable-library-evolution -swift-version 6 -parse-as-library -wmo \
        -package-name "$package_name" -module-name "$module" -I Sources/CSQLite -I "$out/modules" \
        -I "$out/standin" -module-cache-path "$out/cache" \
        -emit-module-path "$out/modules/$module.swiftmodule" \
        -emit-module-interface-path "$out/interfaces/$module.swiftinterface" \
        -emit-private-module-interface-path "$out/interfaces/$module.private.swiftinterface" \
        -emit-package-module-interface-path "$out/interfaces/$module.package.swiftinterface" "$@" >"$log" 2>&1; then
        cat "$log" >&2
        echo "error: $module does not build with library evolution" >&2
        return 1
    fi
    if grep -E '(error|warning):' "$log" | grep -v -E "$allowed" | grep -q .; then
        cat "$log" >&2
        echo "error: $module builds with library evolution, with warnings" >&2
        return 1
    fi
    local kind package_load
    for kind in "" .private .package; do
        log=$out/$module$kind.verify.log
        # A client outside the package reads the public and private interfaces of what it imports.
        # The package interface of a module that imports another of the package needs that one's
        # package interface: loaded only with this variable set (the flag alone is not enough).
        package_load=false
        [ "$kind" = .package ] && package_load=true
        if ! SWIFT_ENABLE_PACKAGE_INTERFACE_LOAD=$package_load swift-frontend \
            -typecheck-module-from-interface "$out/interfaces/$module$kind.swiftinterface" \
            -module-name "$module" -I Sources/CSQLite -I "$out/interfaces" -I "$out/standin" \
            -module-cache-path "$out/cache$kind" >"$log" 2>&1 ||
            grep -E '(error|warning):' "$log" | grep -v -E "$allowed" | grep -q .; then
            cat "$log" >&2
            echo "error: $module's $module$kind.swiftinterface does not compile:" \
                "$(grep -c 'error:' "$log" || true) error(s)" >&2
            return 1
        fi
    done
    echo "   $module: $# files; its interfaces compile (public $(wc -l <"$out/interfaces/$module.swiftinterface")," \
        "private $(wc -l <"$out/interfaces/$module.private.swiftinterface")," \
        "package $(wc -l <"$out/interfaces/$module.package.swiftinterface") lines)"
}

sources() { # FOLDER: its Swift files, sorted, NUL-separated
    find "$1" -name '*.swift' -print0 | sort -z
}

store=()
while IFS= read -r -d '' file; do store+=("$file"); done < <(sources Sources/StateStore)

if $self_test; then
    out=$work/planted
    mkdir -p "$out"
    printf '/// A plant: a public type named like its module.\npublic final class StateStore {}\n' >"$out/Plant.swift"
    echo "== self-test: StateStore's sources and a public class StateStore"
    if build StateStore "$out" "${store[@]}" "$out/Plant.swift" 2>"$out/stderr"; then
        echo "error: the check passed a module with a public type named like it" >&2
        exit 1
    fi
    if ! grep -q -E "shadows module 'StateStore'|is not a member type of class 'StateStore.StateStore'" "$out/stderr"; then
        cat "$out/stderr" >&2
        echo "error: the check failed, but not for the planted type" >&2
        exit 1
    fi
    echo "Interface check self-test: a public class StateStore in module StateStore fails it" \
        "($(grep -c 'error:' "$out/stderr" || true) error(s), $(grep -c 'warning:' "$out/stderr" || true) warning(s))"
    exit 0
fi

out=$work/build
mkdir -p "$out/standin"
echo "== library evolution: each library target, then its .swiftinterface compiled as a client would"
build StateStore "$out" "${store[@]}"
host=()
while IFS= read -r -d '' file; do host+=("$file"); done < <(sources Sources/StateStoreHost)
build StateStoreHost "$out" "${host[@]}"
# The stand-in SDK the adapter needs: UIKit and SwiftUI, with library evolution as Apple's are.
for framework in UIKit SwiftUI; do
    swiftc -swift-version 6 -parse-as-library -enable-library-evolution -D STANDIN_IOS -module-name "$framework" -I "$out/standin" \
        -emit-module -emit-module-path "$out/standin/$framework.swiftmodule" \
        -emit-module-interface-path "$out/standin/$framework.swiftinterface" \
        "Tests/SwiftUIStandIn/$framework.swift" 2>"$out/$framework.log" || { cat "$out/$framework.log" >&2; exit 1; }
    rm "$out/standin/$framework.swiftmodule"
done
adapter=()
while IFS= read -r -d '' file; do adapter+=("$file"); done < <(sources Sources/StateStoreSwiftUI)
build StateStoreSwiftUI "$out" "${adapter[@]}"
if ! grep -q 'AdaptiveWindow' "$out/interfaces/StateStoreSwiftUI.swiftinterface"; then
    echo "error: StateStoreSwiftUI's interface is empty: the stand-in SwiftUI was not imported" >&2
    exit 1
fi
echo "Interface check: StateStore, StateStoreHost and StateStoreSwiftUI build with library evolution," \
    "and their interfaces compile"
