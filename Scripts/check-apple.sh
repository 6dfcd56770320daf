#!/usr/bin/env bash
# Apple-availability type-check of StateStore and statectl, on Linux with no Apple SDK: nothing newer than iOS 17 and macOS 14.
#
#   Scripts/check-apple.sh               the canary, then the sources, for both targets
#   Scripts/check-apple.sh --self-test   the canary only: shows that the check can fail
#
# For x86_64-apple-ios17.0-simulator and x86_64-apple-macosx14.0 (the declared floors):
#
# 1. A stand-in SDK. The toolchain ships Swift, SwiftOnoneSupport, _Concurrency, _RegexParser,
#    _StringProcessing and Observation as .swiftinterface files that keep Apple's @available
#    attributes; each is recompiled for the target with `swift-frontend
#    -compile-module-from-interface`, without function bodies (seconds, not minutes), so that the
#    modules enforce Apple availability. Glibc's overlay is recompiled under the name Darwin over
#    glibc's headers, through a clang VFS overlay (Scripts/apple-check/overlay.yaml.in) that adds
#    the Darwin-only headers glibc lacks (Scripts/apple-check/DarwinOnly: <notify.h>,
#    <sys/event.h>, <crt_externs.h>) and shadows the glibc headers whose declarations Swift would
#    see differently on Darwin (Scripts/apple-check/GlibcAsDarwin: pthread_t and pthread_create,
#    struct stat and the integer types of other widths, no inotify, posix_spawn's opaque types). Glibc itself is not importable, so
#    `canImport(Glibc)` is false and the `canImport(Darwin)` branches compile.
#    Cached in .build/apple-check/SWIFT-VERSION/TARGET, rebuilt when the toolchain, this script
#    or a stand-in file changes.
# 2. The canary (Scripts/apple-check/Canary.swift): each line marked `canary` calls
#    String(validating:as:) (iOS 18 / macOS 15) and must be reported at the floor, and nothing
#    else may be; at iOS 18 / macOS 15 the file must type-check clean, so that the errors are
#    availability's and the stand-in is sound. It also uses the Darwin-only declarations, Apple's
#    pthread_create and the SQLite module, proving that they import as on Apple platforms. No
#    result counts unless the canary passes.
# 3. StateStore's sources (its migrations' committed Swift form among them) are type-checked
#    (Swift 6 language mode: complete strict concurrency), its module emitted (bodies skipped, so
#    that statectl is checked even when a body is wrong), and statectl's sources type-checked
#    against it. The SQLite C module is the one Sources/CSQLite/module.modulemap declares, by the
#    name it declares there.
#
# Any error or warning fails, except one listed in Scripts/apple-check/known-differences.txt by
# file and exact message; an entry that matches nothing fails too, so that the list stays as
# short as the truth.
#
# What it cannot see:
# - C declarations that differ between glibc and Darwin, beyond the ones the stand-in headers
#   give Darwin's form: `DIR` and `dirent`, `clockid_t` (an enum on Darwin), `fcntl`'s and
#   `ioctl`'s overloads, `sendfile`, the `FILE *` globals, signal and socket structures, ... are
#   glibc's here, and glibc's Linux-only functions (epoll, statx, pipe2, ...) are visible. Code is
#   checked against glibc's C declarations where the stand-in has no Darwin form, so a wrong
#   Darwin call can pass here and a right one fail (then it is listed in known-differences.txt).
# - The SQLite header is this machine's, not the SDK's: a function newer than the SQLite of
#   iOS 17 / macOS 14 passes here.
# - Foundation, Dispatch, SwiftUI and UIKit users: StateStoreHost, StateStoreSwiftUI and mailhost
#   are not compiled here (the SwiftUI and UIKit stand-ins check the adapter).
# - Objective-C interop: everything is compiled with -disable-objc-interop (the Linux standard
#   library has no AutoreleasingUnsafeMutablePointer, so every inout-to-pointer conversion fails
#   with interop on); these targets declare nothing @objc.
# - tvOS, watchOS, visionOS and arm64: the same interfaces, not compiled for them here.
# - Code generation, linking (symbols, the SDK's libsqlite3) and runtime behaviour: nothing here
#   runs on an Apple platform.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(x86_64-apple-ios17.0-simulator x86_64-apple-macosx14.0)
# The same targets at the OS releases that have String(validating:as:), for the canary's clean pass.
declare -A newer=([x86_64-apple-ios17.0-simulator]=x86_64-apple-ios18.0-simulator
    [x86_64-apple-macosx14.0]=x86_64-apple-macosx15.0)
# The interfaces to recompile, each after those it imports; Glibc's is built as Darwin.
interfaces=(Swift SwiftOnoneSupport _Concurrency _RegexParser _StringProcessing Darwin Observation)
standins=Scripts/apple-check
allowlist=$standins/known-differences.txt

self_test=false
case "${1-}" in
    "") ;;
    --self-test) self_test=true ;;
    *)
        echo "usage: Scripts/check-apple.sh [--self-test]" >&2
        exit 64
        ;;
esac

# The toolchain's Linux interfaces and version (the cache key), and glibc's per-architecture headers.
frontend=$(command -v swift-frontend)
host_triple=$(swift -print-target-info | sed -n 's/^ *"unversionedTriple": "\(.*\)",$/\1/p' | head -n 1)
host_interfaces=$(dirname "$frontend")/../lib/swift/linux
swift_version=$("$frontend" --version | sed -n 's/.*(\(swift-[^)]*\)).*/\1/p' | head -n 1)
multiarch=/usr/include/$(uname -m)-linux-gnu
for needed in "$host_interfaces/Glibc.swiftmodule/$host_triple.swiftinterface" \
    "$host_interfaces/$(uname -m)/SwiftGlibc.h" "$multiarch/bits/pthreadtypes.h" /usr/include/pthread.h; do
    if [ ! -e "$needed" ] || [ -z "$swift_version" ]; then
        echo "error: the check needs $needed (a Linux Swift toolchain, glibc's headers)" >&2
        exit 1
    fi
done
case "$PWD$multiarch" in
    *[[:space:]]*)
        echo "error: the check cannot run from a path with spaces (interfaces' flags carry it)" >&2
        exit 1
        ;;
esac

# The SQLite C module's name, as the module map declares it (the folder keeps its own name).
sqlite_module=$(sed -n 's/^ *module \([A-Za-z_][A-Za-z0-9_]*\) .*/\1/p' Sources/CSQLite/module.modulemap | head -n 1)
if [ -z "$sqlite_module" ]; then
    echo "error: no module name in Sources/CSQLite/module.modulemap" >&2
    exit 1
fi

echo "== SQLite module $sqlite_module (Sources/CSQLite/module.modulemap)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What a stand-in SDK is made of besides the toolchain: a change to any of it rebuilds it.
recipe=$(find Scripts/check-apple.sh "$standins" -type f ! -name Canary.swift ! -name known-differences.txt \
    -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)

# The clang flags of every compile for a target (@OVERLAY@ stands for its VFS overlay), so that
# SwiftGlibc (glibc as Darwin) and the SQLite module resolve alike everywhere: the overlay;
# glibc's per-architecture headers after the system's (clang's Darwin driver does not look
# there); and no `__nonnull` macro (clang predefines one for Apple targets, and glibc then skips
# defining its own attribute macro of that name, which its headers use).
xcc=(-Xcc -ivfsoverlay -Xcc @OVERLAY@ -Xcc -idirafter -Xcc "$multiarch" -Xcc -U__nonnull)

# Builds (or reuses) the stand-in SDK for one target in its folder.
build_sdk() {
    local target=$1 dir=$2
    if [ -f "$dir/recipe" ] && [ "$(cat "$dir/recipe")" = "$recipe" ]; then
        return
    fi
    echo "== stand-in SDK for $target (cached in ${dir#"$PWD/"})"
    rm -rf "$dir"
    mkdir -p "$dir/modules" "$dir/interfaces" "$dir/clang-modules"
    sed -e "s|@STANDINS@|$PWD/$standins|g" -e "s|@TOOLCHAIN_PLATFORM@|$host_interfaces/$(uname -m)|g" \
        -e "s|@MULTIARCH@|$multiarch|g" "$standins/overlay.yaml.in" >"$dir/overlay.yaml"
    local module source flags parse_stdlib
    for module in "${interfaces[@]}"; do
        source=$module
        [ "$module" = Darwin ] && source=Glibc
        # The Linux interface, made the target's: its target triple; no optimisation and no
        # function bodies (a type-check needs declarations only); no availability checking of the
        # interface itself (Linux prints some witnesses with the availability of their type, which
        # Apple's compiler would reject); @backDeployed dropped (Linux prints those functions
        # without the bodies it requires; it changes no availability); Glibc renamed Darwin.
        flags="-target $target -Onone -experimental-skip-all-function-bodies -disable-availability-checking"
        if [ "$module" = Darwin ] || [ "$module" = Observation ]; then
            # An interface build does not inherit -Xcc flags from the command line: the
            # interface's own flags carry them.
            flags+=" ${xcc[*]/@OVERLAY@/$dir/overlay.yaml}"
        fi
        sed -e "3s|-target $host_triple|$flags|" -e '3s| -O | |' -e '3s|-module-name Glibc$|-module-name Darwin|' \
            -e 's/^import Glibc$/import Darwin/' -e 's/\bGlibc\./Darwin./g' -e '/^ *@backDeployed(/d' \
            "$host_interfaces/$source.swiftmodule/$host_triple.swiftinterface" >"$dir/interfaces/$module.swiftinterface"
        if ! sed -n 3p "$dir/interfaces/$module.swiftinterface" |
            grep -q -- "-target $target .*-module-name $module\$"; then
            echo "error: $source's interface does not start as this script expects (its flags on line 3)" >&2
            exit 1
        fi
        parse_stdlib=()
        if sed -n 3p "$dir/interfaces/$module.swiftinterface" | grep -q -- ' -parse-stdlib '; then
            parse_stdlib=(-parse-stdlib)
        fi
        "$frontend" -compile-module-from-interface "${parse_stdlib[@]}" -module-name "$module" -target "$target" \
            -I "$dir/modules" -module-cache-path "$dir/clang-modules" \
            -o "$dir/modules/$module.swiftmodule" "$dir/interfaces/$module.swiftinterface"
    done
    echo "$recipe" >"$dir/recipe"
}

# Type-checks (or emits) Swift for one target with its stand-in SDK, the compiler's output to the
# log. Returns the compiler's status.
swift_for() {
    local target=$1 dir=$2 log=$3
    shift 3
    "$frontend" -target "$target" -disable-objc-interop -swift-version 6 -package-name statestore \
        -D SWIFT_PACKAGE -I "$dir/modules" -I Sources/CSQLite -module-cache-path "$dir/clang-modules" \
        "${xcc[@]/@OVERLAY@/$dir/overlay.yaml}" -diagnostic-style llvm -no-color-diagnostics "$@" >"$log" 2>&1
}

# A log's errors and warnings in source files, as FILE: SEVERITY: MESSAGE (no line or column).
diagnostics() {
    sed -n -E 's/^([^ :][^:]*):[0-9]+:[0-9]+: (error|warning): (.*)$/\1: \2: \3/p' "$1"
}

# A log's errors and warnings that name no place in a file (the driver's, a module's).
unplaced() {
    grep -E '^(error|warning): |^[^ :]+:[0-9]+: (error|warning): ' "$1" || true
}

# The allowlist's entries: its lines that are neither comments nor blank.
allowed() {
    grep -v -E '^[[:space:]]*(#|$)' "$allowlist" || true
}

used_entries=$work/used-entries
: >"$used_entries"

# Fails, with the compiler's output, when a log holds a diagnostic the allowlist does not name,
# or when the compiler failed (its status the third argument) without saying why.
judge() {
    local what=$1 log=$2 status=$3 unexpected
    if [ "$status" != 0 ] && ! grep -q -E ': error: |^error: ' "$log"; then
        cat "$log" >&2
        echo "error: $what: the compiler failed (status $status) without an error" >&2
        return 1
    fi
    diagnostics "$log" | grep -F -x -f <(allowed) >>"$used_entries" || true
    unexpected=$(
        diagnostics "$log" | grep -v -F -x -f <(allowed) || true
        unplaced "$log"
    )
    if [ -n "$unexpected" ]; then
        cat "$log" >&2
        echo "error: $what: $(echo "$unexpected" | wc -l) diagnostic(s) not in $allowlist:" >&2
        echo "  ${unexpected//$'\n'/$'\n'  }" >&2
        return 1
    fi
}

# The canary: each marked line reported at the floor, and nothing else; clean past the floor.
canary() {
    local target=$1 dir=$2 log=$work/canary.log probe=$work/SQLiteProbe.swift
    printf 'import %s\n\nlet sqliteVersion = sqlite3_libversion_number()\n' "$sqlite_module" >"$probe"
    local files=("$standins/Canary.swift" "$probe") expected reported others
    swift_for "$target" "$dir" "$log" -typecheck -parse-as-library -module-name Canary "${files[@]}" || true
    expected=$({ grep -n '// canary$' "$standins/Canary.swift" || true; } | cut -d: -f1 | sort -u | xargs)
    reported=$(sed -n -E "s|^$standins/Canary.swift:([0-9]+):[0-9]+: error: .*|\1|p" "$log" | sort -u | xargs)
    others=$(
        diagnostics "$log" | grep -v "^$standins/Canary.swift: error: " || true
        unplaced "$log"
    )
    if [ -z "$expected" ] || [ "$expected" != "$reported" ] || [ -n "$others" ] ||
        ! grep -q -E "^$standins/Canary.swift:.* is only available in (macOS 15\.0|iOS 18\.0) or newer" "$log"; then
        cat "$log" >&2
        echo "error: the canary is not reported as it must be for $target: errors on lines $expected" \
            "of $standins/Canary.swift (one 'is only available in' iOS 18 or macOS 15) and nothing else;" \
            "reported on lines ${reported:-none}" >&2
        return 1
    fi
    echo "   canary reported on lines $expected"
    if ! swift_for "${newer[$target]}" "$dir" "$log" -typecheck -parse-as-library -module-name Canary "${files[@]}" ||
        grep -q -E ': (error|warning): ' "$log"; then
        cat "$log" >&2
        echo "error: the canary does not type-check clean at ${newer[$target]}: the stand-in is broken" >&2
        return 1
    fi
    echo "   canary clean at ${newer[$target]}"
}

# StateStore, then statectl against the StateStore module emitted for the target.
sources() {
    local target=$1 dir=$2 log=$work/sources.log store=() tool=() file status=0 code
    while IFS= read -r -d '' file; do
        store+=("$file")
    done < <(find Sources/StateStore -name '*.swift' -print0 | sort -z)
    while IFS= read -r -d '' file; do
        tool+=("$file")
    done < <(find Sources/statectl -name '*.swift' -print0 | sort -z)
    echo "   StateStore: ${#store[@]} files"
    code=0
    swift_for "$target" "$dir" "$log" -typecheck -parse-as-library -module-name StateStore "${store[@]}" || code=$?
    judge "StateStore for $target" "$log" $code || status=1
    mkdir -p "$work/$target"
    if ! swift_for "$target" "$dir" "$log" -emit-module -experimental-skip-non-inlinable-function-bodies \
        -parse-as-library -module-name StateStore -emit-module-path "$work/$target/StateStore.swiftmodule" \
        "${store[@]}"; then
        cat "$log" >&2
        echo "error: StateStore's module cannot be emitted for $target, so statectl is not checked" >&2
        return 1
    fi
    echo "   statectl: ${#tool[@]} files"
    code=0
    swift_for "$target" "$dir" "$log" -typecheck -I "$work/$target" -module-name statectl "${tool[@]}" || code=$?
    judge "statectl for $target" "$log" $code || status=1
    return $status
}

failed=0
for target in "${targets[@]}"; do
    dir=$PWD/.build/apple-check/$swift_version/$target
    build_sdk "$target" "$dir"
    echo "== $target"
    canary "$target" "$dir"
    if ! $self_test; then
        sources "$target" "$dir" || failed=1
    fi
done
if $self_test; then
    echo "Apple check self-test: the canary is reported at ${targets[*]}, and clean past the floor"
    exit 0
fi

# An entry that matched nothing for any target is no longer a known difference.
stale=$(allowed | grep -v -F -x -f <(sort -u "$used_entries") || true)
if [ -n "$stale" ]; then
    echo "error: entries of $allowlist that matched nothing (remove them):" >&2
    echo "  ${stale//$'\n'/$'\n'  }" >&2
    failed=1
fi
if [ $failed != 0 ]; then
    echo "error: StateStore or statectl does not type-check for Apple platforms at the declared floor" >&2
    exit 1
fi
echo "Apple check: StateStore and statectl type-check for ${targets[*]}" \
    "($(sort -u "$used_entries" | grep -c . || true) known difference(s) filtered)"
