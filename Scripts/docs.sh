#!/usr/bin/env bash
# Builds the API documentation of StateStore and StateStoreHost with DocC, and fails on any warning.
#
#   Scripts/docs.sh               both archives, into .build/docs/MODULE.doccarchive
#   Scripts/docs.sh --self-test   shows that each check below fails when it should, on a scratch module
#
# The symbol graphs come from the debug build (`swift build`, then swift-symbolgraph-extract on the
# modules it wrote, as `swift package dump-symbol-graph` does, for just these two modules); the
# catalogs are Sources/MODULE/MODULE.docc. Three checks, each failing the run:
#   - every warning docc prints (an unresolved link, a Topics heading that is not a heading, …);
#   - a public symbol declared in Sources/ without a doc comment of its own (docc does not report it);
#   - a public symbol declared in Sources/ that no Topics section of the catalog lists (docc files it
#     under a group of its own making, which it marks `generated`).
# Symbols the compiler makes (`==`, `hash(into:)`, `init(rawValue:)`, a protocol's default `!=`, a
# default implementation as it appears on each conforming type) are neither written nor curated
# here: docc lists them under groups of its own.
# StateStoreHost's links to StateStore's symbols are written ``/StateStore/Route`` and resolve against
# StateStore's archive (docc's experimental external link support; an open archive links across).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
triple=$(swiftc -print-target-info | jq -r .target.triple)

# document MODULE MODULES_DIR CATALOG OUT [DEPENDENCY_ARCHIVE]: the symbol graph of MODULE (built
# into MODULES_DIR), converted with CATALOG into OUT/MODULE.doccarchive; 1 on any finding.
document() {
    local module=$1 modules=$2 catalog=$3 out=$4 dependency=${5:-}
    local graphs="$out/symbol-graphs/$module" archive="$out/$module.doccarchive" log="$out/$module.log"
    rm -rf "$graphs" "$archive"
    mkdir -p "$graphs"
    # -skip-inherited-docs: a symbol whose comment would come from the protocol it implements shows
    # as undocumented, as swift-format's AllPublicDeclarationsHaveDocumentation sees it.
    swift-symbolgraph-extract -module-name "$module" -I "$modules" -I "$root/Sources/CSQLite" \
        -target "$triple" -minimum-access-level public -skip-inherited-docs -emit-extension-block-symbols \
        -output-dir "$graphs"

    local convert=(docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-path "$archive"
        --fallback-display-name "$module" --fallback-bundle-identifier "$module"
        --enable-experimental-external-link-support)
    [ -z "$dependency" ] || convert+=(--dependency "$dependency")
    # Not --warnings-as-errors, which stops docc before it writes the archive the checks below read:
    # a warning fails the run all the same.
    local status=0
    "${convert[@]}" >"$log" 2>&1 || status=$?
    local failed=0
    if [ "$status" -ne 0 ] || grep -q -E '^(warning|error):' "$log"; then
        cat "$log" >&2
        echo "error: docc reported problems in $module's documentation (above)" >&2
        failed=1
    fi
    [ -d "$archive/data/documentation" ] || return 1

    # Declared in Sources/ (a symbol the compiler made has no location), not an extension block, and
    # not a protocol's default implementation as docc copies it onto a conforming type (documented
    # and curated where it is declared).
    local ours='[.symbols[] | select(.location != null and .kind.identifier != "swift.extension"
        and (.identifier.precise | contains("::SYNTHESIZED::") | not))]'
    local undocumented
    undocumented=$(jq -r --arg root "file://$root/" "$ours"' | .[]
        | select([.docComment.lines[]?.text] | join("") | test("\\S") | not)
        | "  \(.pathComponents | join("."))  (\(.location.uri | ltrimstr($root)):\(.location.position.line + 1))"' \
        "$graphs"/*.symbols.json)
    if [ -n "$undocumented" ]; then
        echo "error: public symbols of $module without a doc comment:" >&2
        echo "$undocumented" >&2
        failed=1
    fi

    local uncurated
    uncurated=$(jq -s -r "[.[] | $ours | .[]]"' | map({(.identifier.precise): (.pathComponents | join("."))}) | add // {}' \
        "$graphs"/*.symbols.json | jq -r --slurpfile pages <(find "$archive/data/documentation" -name '*.json' -exec cat {} +) '
        . as $ours
        | ([$pages[] | .topicSections[]? | select(.generated != true) | .identifiers[]] | unique) as $curated
        | $pages[] | select(.metadata.externalID != null and $ours[.metadata.externalID] != null)
        | select(.identifier.url as $url | $curated | index($url) | not)
        | "  \($ours[.metadata.externalID])  (\(.identifier.url))"' | sort)
    if [ -n "$uncurated" ]; then
        echo "error: public symbols of $module that no Topics section of $catalog lists:" >&2
        echo "$uncurated" >&2
        failed=1
    fi
    return "$failed"
}

# edit SED-EXPRESSION FILE: sed in place, as BSD and GNU sed both do it.
edit() { sed -e "$1" "$2" >"$2.edited" && mv "$2.edited" "$2"; }

self_test() {
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # Sample: a documented type whose members the catalog curates; each case breaks one thing.
    write_sample() {
        rm -rf "$work/src" "$work/modules" "$work/Sample.docc"
        mkdir -p "$work/src" "$work/modules" "$work/Sample.docc"
        cat >"$work/src/Sample.swift" <<'EOF'
/// A thing: see ``open()``.
public struct Thing {
    /// Opens the thing.
    public func open() {}
    /// Closes the thing.
    public func close() {}
}
EOF
        cat >"$work/Sample.docc/Sample.md" <<'EOF'
# ``Sample``

Things to open and close.

## Topics

### Things

- ``Thing``
EOF
        cat >"$work/Sample.docc/Thing.md" <<'EOF'
# ``Sample/Thing``

## Topics

### Using a thing

- ``open()``
- ``close()``
EOF
    }
    check_sample() { # EXPECTED-STATUS TEXT-IN-THE-OUTPUT DESCRIPTION
        swiftc -emit-module -parse-as-library -swift-version 6 -module-name Sample \
            -emit-module-path "$work/modules/Sample.swiftmodule" "$work/src/Sample.swift"
        local status=0
        document Sample "$work/modules" "$work/Sample.docc" "$work/out" >"$work/output" 2>&1 || status=$?
        if [ "$status" -ne "$1" ] || { [ -n "$2" ] && ! grep -q -F -- "$2" "$work/output"; }; then
            cat "$work/output" >&2
            echo "self-test failed: $3: expected status $1 and '$2' in the output, got status $status" >&2
            exit 1
        fi
        echo "ok: $3"
    }

    write_sample
    check_sample 0 "" "a documented, curated module passes"

    write_sample
    edit 's/``open()``\./``opened()``./' "$work/src/Sample.swift"
    check_sample 1 "'opened()' doesn't exist" "an unresolved link in a doc comment fails"

    write_sample
    edit 's/- ``close()``/- ``closed()``/' "$work/Sample.docc/Thing.md"
    check_sample 1 "'closed()' doesn't exist" "an unresolved link in the catalog fails"

    write_sample
    edit '/Closes the thing/d' "$work/src/Sample.swift"
    check_sample 1 "Thing.close()  (" "a public symbol without a doc comment fails"

    write_sample
    edit '/^- ``close()``$/d' "$work/Sample.docc/Thing.md"
    check_sample 1 "Thing.close()  (doc://Sample/documentation/Sample/Thing/close())" \
        "a public symbol no Topics section lists fails"
    echo "docs.sh self-test: every check fails when it should"
}

if [ "${1:-}" = "--self-test" ]; then
    self_test
    exit 0
fi

echo "== build StateStore and StateStoreHost"
swift build --target StateStoreHost >/dev/null
modules="$(swift build --show-bin-path)/Modules"
out=.build/docs
mkdir -p "$out"

failed=0
echo "== StateStore"
document StateStore "$modules" Sources/StateStore/StateStore.docc "$out" || failed=1
echo "== StateStoreHost"
document StateStoreHost "$modules" Sources/StateStoreHost/StateStoreHost.docc "$out" "$out/StateStore.doccarchive" ||
    failed=1
[ "$failed" -eq 0 ] || exit 1
echo "documentation: $out/StateStore.doccarchive, $out/StateStoreHost.doccarchive (no warnings," \
    "every public symbol documented and curated)"
