#!/usr/bin/env bash
# Checks that the public API of StateStore and StateStoreHost does not break by accident.
#
#   Scripts/api-check.sh               compares the API with the baseline in API/; fails on a break
#   Scripts/api-check.sh --update      records the API as the new baseline (a deliberate commit)
#   Scripts/api-check.sh --self-test   shows the check failing on a scratch removal, and its rules
#                                      (API_CHECK_VERBOSE=1: with what the check printed each time)
#
# The baseline is API/MODULE.json, a dump of the module's public API by `swift-api-digester
# -dump-sdk` (-avoid-location, so that paths do not churn), and API/baseline-version, the version
# it was recorded at. The dump is made from the module's public .swiftinterface, compiled here with
# swiftc from Sources/ (type-checked only), so that it holds what a client sees and nothing of
# `package` access (a dump of the build's own .swiftmodule has those too).
#
# A break is what `swift-api-digester -diagnose-sdk` reports against the baseline (a declaration
# removed or renamed, a type changed, a default argument or a conformance removed, a protocol
# requirement added, …) and a case added to a public enum, which the digester lets pass for a
# module built with library evolution but which breaks a client's exhaustive `switch` here (the
# package is built without it, so its enums are frozen to clients). A break passes only when the
# version says so and CHANGELOG.md does: the version (statectl's `Statectl.version`, the package's
# one version) is a major release past the baseline's (a minor one before 1.0.0), and
# CHANGELOG.md's section for it names each broken declaration as the check prints it
# (`WindowState.routeCount`). Additions always pass, and are listed. CHANGELOG.md must have a
# section for the current version in any case.
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD
modules=(StateStore StateStoreHost)

# The package's one version, as `statectl --version` prints it.
read_version() { # ROOT
    local version
    version=$(sed -n 's/^ *static let version = "\([0-9]*\.[0-9]*\.[0-9]*\)".*/\1/p' "$1/Sources/statectl/Statectl.swift")
    [ -n "$version" ] || { echo "error: no 'static let version = \"X.Y.Z\"' in Sources/statectl/Statectl.swift" >&2; return 1; }
    echo "$version"
}

# dump ROOT OUT: OUT/MODULE.json for each module, from ROOT/Sources/MODULE.
dump() {
    local root=$1 out=$2
    mkdir -p "$out/modules" "$out/public" "$out/cache"
    # Library evolution is what makes swiftc write a .swiftinterface; the aliases keep it readable
    # although module StateStore declares a class StateStore. Warnings are the build's business
    # (Foundation on Linux is not built for library evolution, and says so).
    local flags=(-emit-module -parse-as-library -swift-version 6 -package-name statestore -enable-library-evolution
        -Xfrontend -alias-module-names-in-module-interface -suppress-warnings
        -I "$root/Sources/CSQLite" -I "$out/modules")
    local module sources source
    for module in "${modules[@]}"; do
        sources=()
        while IFS= read -r source; do sources+=("$source"); done < <(find "$root/Sources/$module" -name '*.swift' | sort)
        swiftc "${flags[@]}" -module-name "$module" -emit-module-path "$out/modules/$module.swiftmodule" \
            -emit-module-interface-path "$out/modules/$module.swiftinterface" "${sources[@]}"
        # Only the public interface: the digester would load a .swiftmodule or .package.swiftinterface.
        cp "$out/modules/$module.swiftinterface" "$out/public/"
    done
    for module in "${modules[@]}"; do
        swift-api-digester -dump-sdk -module "$module" -I "$out/public" -I "$root/Sources/CSQLite" \
            -module-cache-path "$out/cache" -avoid-location -avoid-tool-args -abort-on-module-fail \
            -o "$out/$module.json"
    done
}

# Every declaration of a dump, one JSON object a line: kind, name (Type.member), usr, parent's kind.
declarations() { # DUMP
    jq -c '
        def entries($prefix; $parentKind):
            (.children // [])[] | select(.declKind != null and .declKind != "Import")
            | (if $prefix == "" then .printedName else $prefix + "." + .printedName end) as $name
            | ({kind: .declKind, name: $name, usr: .usr, parent: $prefix, parentKind: $parentKind},
               ((.conformances // [])[] | {kind: "Conformance", name: ($name + ": " + .printedName),
                   usr: ($name + ": " + .usr), parent: $name, parentKind: "Conformance"}),
               ((.accessors // [])[] | {kind: "Accessor", name: ($name + "." + .printedName), usr: .usr,
                   parent: $name, parentKind: "Accessor"}),
               entries($name; .declKind));
        .ABIRoot | entries(""; "")' "$1"
}

# compare BASELINE CURRENT MODULE BREAKS: prints additions and breaks; appends each break to BREAKS.
compare() {
    local baseline=$1 current=$2 module=$3 breaks=$4 work
    work=$(mktemp -d)
    declarations "$baseline" >"$work/old"
    declarations "$current" >"$work/new"
    # Additions: a declaration whose usr and name are both new (a changed signature is a new usr
    # under an old name; the digester reports what it did to the old one), listed without the
    # members, accessors and conformances of what is new itself.
    local added
    added=$(jq -r -s --slurpfile old "$work/old" '
        ($old | map(.usr) | INDEX(.)) as $usrs | ($old | map(.kind + " " + .name) | INDEX(.)) as $names
        | map(select($usrs[.usr] == null and $names[.kind + " " + .name] == null))
        | (map(.name) | INDEX(.)) as $new
        | .[] | select($new[.parent] == null)
        | select(.kind != "EnumElement" or $names["Enum " + .parent] == null) # a break, below
        | "\(.kind) \(.name)"' \
        "$work/new")
    # A new case of an enum the baseline has: a client's exhaustive switch over it stops compiling.
    jq -r -s --slurpfile old "$work/old" '
        ($old | map(select(.kind == "Enum") | .name) | INDEX(.)) as $enums
        | ($old | map(select(.kind == "EnumElement") | .name) | INDEX(.)) as $cases
        | .[] | select(.kind == "EnumElement" and $enums[.parent] != null and $cases[.name] == null)
        | "EnumElement \(.name) has been added to a public enum: a client'"'"'s exhaustive switch over \(.parent) no longer compiles"' \
        "$work/new" >"$work/breaks"
    swift-api-digester -diagnose-sdk -input-paths "$baseline" -input-paths "$current" -o "$work/diagnosis" \
        2>"$work/digester-errors" || { cat "$work/digester-errors" >&2; rm -rf "$work"; return 2; }
    grep -v -e '^/\*' -e '^[[:space:]]*$' "$work/diagnosis" >>"$work/breaks" || true
    local additions=0 count
    [ -z "$added" ] || additions=$(printf '%s\n' "$added" | wc -l)
    count=$(wc -l <"$work/breaks")
    echo "$module: $additions added, $count breaking"
    [ -z "$added" ] || printf '%s\n' "$added" | sed 's/^/  added: /'
    sed 's/^/  breaking: /' "$work/breaks"
    sed "s/^/$module: /" "$work/breaks" >>"$breaks"
    rm -rf "$work"
}

# The declaration a break names: the digester's second word, an accessor's property for an accessor.
broken_name() { # LINE
    echo "$1" | sed -E 's/^[A-Za-z]+: //' | awk '{print $2}' | sed -E 's/\.(Get|Set|Modify|Read|Yield|Init|WillSet|DidSet|Address|MutableAddress)\(\)$//'
}

# The lines of CHANGELOG.md's section for VERSION (from its `## VERSION` heading to the next `## `).
changelog_section() { # CHANGELOG VERSION
    awk -v version="$2" '
        /^## / { inside = ($0 ~ "^## \\[?" version "\\]?([^0-9.]|$)"); if (inside) { found = 1 }; next }
        inside { print }
        END { exit found ? 0 : 1 }' "$1"
}

# gate VERSION BASELINE_VERSION CHANGELOG BREAKS: 0 when every break is allowed.
gate() {
    local version=$1 baseline=$2 changelog=$3 breaks=$4 section
    if ! section=$(changelog_section "$changelog" "$version"); then
        echo "error: CHANGELOG.md has no section '## $version' for the current version (Statectl.version)" >&2
        return 1
    fi
    local major minor patch bmajor bminor bpatch
    IFS=. read -r major minor patch <<<"$version"
    IFS=. read -r bmajor bminor bpatch <<<"$baseline"
    if ((major < bmajor || (major == bmajor && (minor < bminor || (minor == bminor && patch < bpatch))))); then
        echo "error: version $version is older than the baseline's, $baseline" >&2
        return 1
    fi
    [ -s "$breaks" ] || return 0
    local breaking_release=0
    if ((major > bmajor || (major == 0 && bmajor == 0 && minor > bminor))); then breaking_release=1; fi
    local line name unnamed=()
    while IFS= read -r line; do
        name=$(broken_name "$line")
        grep -q -F -- "$name" <<<"$section" || unnamed+=("$name")
    done <"$breaks"
    if [ "$breaking_release" -eq 1 ] && [ ${#unnamed[@]} -eq 0 ]; then
        echo "the breaking changes above are allowed: version $version after $baseline, each named in CHANGELOG.md"
        return 0
    fi
    echo "error: the public API breaks (above) and the version and CHANGELOG.md do not say so:" >&2
    if [ "$breaking_release" -eq 0 ]; then
        if [ "$bmajor" -eq 0 ]; then
            echo "  the version must go from $baseline to 0.$((bminor + 1)).0 or later (Statectl.version)" >&2
        else
            echo "  the version must go from $baseline to $((bmajor + 1)).0.0 or later (Statectl.version)" >&2
        fi
    fi
    for name in "${unnamed[@]}"; do echo "  CHANGELOG.md's section '## $version' must name $name" >&2; done
    echo "  (if the break is meant, say so in both; at the release, Scripts/api-check.sh --update records" \
        "the new baseline in API/)" >&2
    return 1
}

# check ROOT CURRENT_DUMPS: compares ROOT's baseline with the dumps and gates the breaks.
check() {
    local root=$1 current=$2 version baseline breaks status=0
    version=$(read_version "$root")
    baseline=$(cat "$root/API/baseline-version")
    breaks=$(mktemp)
    echo "version $version, baseline $baseline"
    for module in "${modules[@]}"; do
        compare "$root/API/$module.json" "$current/$module.json" "$module" "$breaks" || status=$?
    done
    [ "$status" -eq 0 ] || { rm -f "$breaks"; return "$status"; }
    gate "$version" "$baseline" "$root/CHANGELOG.md" "$breaks" || status=$?
    rm -f "$breaks"
    return "$status"
}

# edit SED-EXPRESSION FILE: sed in place, as BSD and GNU sed both do it.
edit() { sed -e "$1" "$2" >"$2.edited" && mv "$2.edited" "$2"; }

self_test() {
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    expect() { # STATUS TEXT DESCRIPTION COMMAND...
        local want=$1 text=$2 description=$3 status=0
        shift 3
        "$@" >"$work/output" 2>&1 || status=$?
        if [ "$status" -ne "$want" ] || ! grep -q -F -- "$text" "$work/output"; then
            cat "$work/output" >&2
            echo "self-test failed: $description: expected status $want and '$text', got status $status" >&2
            exit 1
        fi
        echo "ok: $description"
        [ -z "${API_CHECK_VERBOSE:-}" ] || sed 's/^/    | /' "$work/output"
    }

    echo "== a scratch copy of the sources, CheckReport.isOK no longer public, an addition beside it"
    local copy=$work/copy
    mkdir -p "$copy/Sources/statectl"
    cp -R Sources/StateStore Sources/StateStoreHost Sources/CSQLite "$copy/Sources/"
    cp Sources/statectl/Statectl.swift "$copy/Sources/statectl/"
    cp CHANGELOG.md "$copy/"
    # The scratch baseline is the API as it is now, at the current version, so that only the break
    # planted below counts (not breaks this version already makes against the recorded baseline).
    dump "$copy" "$work/baseline"
    mkdir -p "$copy/API"
    for module in "${modules[@]}"; do cp "$work/baseline/$module.json" "$copy/API/$module.json"; done
    read_version "$copy" >"$copy/API/baseline-version"
    grep -q '^    public var isOK: Bool' "$copy/Sources/StateStore/Store/WindowStore/WindowStore+Schema.swift" ||
        { echo "self-test failed: CheckReport.isOK is not where the self-test expects it" >&2; exit 1; }
    edit 's/^    public var isOK: Bool/    var isOK: Bool/' "$copy/Sources/StateStore/Store/WindowStore/WindowStore+Schema.swift"
    printf '%s\n' 'extension Route {' '    /// Added by the self-test.' '    public var selfTestAddition: Int { 0 }' '}' \
        >"$copy/Sources/StateStore/SelfTestAddition.swift"
    dump "$copy" "$work/current"

    local version
    version=$(read_version "$copy")
    expect 1 "breaking: Var CheckReport.isOK has been removed" "a removed public symbol fails the check" \
        check "$copy" "$work/current"
    expect 1 "added: Var Route.selfTestAddition" "an addition is listed" check "$copy" "$work/current"

    # The version says so, CHANGELOG.md does not.
    IFS=. read -r major minor _ <<<"$version"
    local next
    if [ "$major" -eq 0 ]; then next="0.$((minor + 1)).0"; else next="$((major + 1)).0.0"; fi
    edit "s/static let version = \"$version\"/static let version = \"$next\"/" "$copy/Sources/statectl/Statectl.swift"
    printf '# Changelog\n\n## %s\n\n### Removed\n\n- Nothing named here.\n' "$next" >"$copy/CHANGELOG.md"
    expect 1 "must name CheckReport.isOK" "a break the changelog does not name fails" check "$copy" "$work/current"
    printf '# Changelog\n\n## %s\n\n### Removed\n\n- `CheckReport.isOK`: read `integrity`.\n' "$next" \
        >"$copy/CHANGELOG.md"
    expect 0 "breaking changes above are allowed" "a break the version and the changelog name passes" \
        check "$copy" "$work/current"
    # Named, but a patch release.
    local patch="$major.$minor.9"
    edit "s/static let version = \"$next\"/static let version = \"$patch\"/" "$copy/Sources/statectl/Statectl.swift"
    printf '# Changelog\n\n## %s\n\n- `CheckReport.isOK` removed.\n' "$patch" >"$copy/CHANGELOG.md"
    expect 1 "the version must go from" "a break in a release that may not break fails" check "$copy" "$work/current"
    printf '# Changelog\n\n## 9.9.9\n' >"$copy/CHANGELOG.md"
    expect 1 "no section '## $patch'" "a version CHANGELOG.md has no section for fails" check "$copy" "$work/current"

    echo "== the rules, on a scratch module"
    local sample=$work/sample
    sample_version() { # NAME SED-EXPRESSION: the base sample, edited
        mkdir -p "$sample/$1/Sources/Sample"
        cat >"$sample/$1/Sources/Sample/Sample.swift" <<'EOF'
public enum Kind { case a, b }
public protocol Named { var name: String { get } }
public struct Thing {
    public var size: Int
    public init() { size = 0 }
    public func open(_ fast: Bool = true) {}
}
EOF
        edit "$2" "$sample/$1/Sources/Sample/Sample.swift"
        (modules=(Sample) && dump "$sample/$1" "$sample/$1/dump" >/dev/null)
    }
    sample_version old ''
    sample_version added '$a extension Thing { public func close() {} }'
    sample_version newCase 's/case a, b/case a, b, c/'
    sample_version requirement 's/var name: String { get }/& ; var title: String { get }/'
    sample_version noDefault 's/_ fast: Bool = true/_ fast: Bool/'
    sample_version readOnly 's/public var size/public private(set) var size/'
    sample_compare() { # VERSION
        : >"$sample/breaks"
        modules=(Sample)
        compare "$sample/old/dump/Sample.json" "$sample/$1/dump/Sample.json" Sample "$sample/breaks"
        [ ! -s "$sample/breaks" ]
    }
    expect 0 "added: Func Thing.close()" "an added method passes and is listed" sample_compare added
    expect 1 "EnumElement Kind.c has been added" "a new case of a public enum fails" sample_compare newCase
    expect 1 "has been added as a protocol requirement" "a new protocol requirement fails" sample_compare requirement
    expect 1 "removed default argument" "a removed default argument fails" sample_compare noDefault
    expect 1 "Thing.size.Set() has been removed" "a setter made private fails" sample_compare readOnly
    modules=(StateStore StateStoreHost)
    echo "api-check.sh self-test: a break fails unless the version and the changelog say so"
}

case "${1:-}" in
    --self-test)
        self_test
        ;;
    --update | "")
        work=$(mktemp -d)
        trap 'rm -rf "$work"' EXIT
        dump "$repository" "$work/current"
        status=0
        if [ "${1:-}" = --update ] && [ ! -f API/baseline-version ]; then
            echo "no baseline yet: recording the first"
        else
            check "$repository" "$work/current" || status=$?
        fi
        if [ "${1:-}" = --update ]; then
            [ "$status" -eq 0 ] || { echo "error: baseline not updated" >&2; exit "$status"; }
            mkdir -p API
            for module in "${modules[@]}"; do cp "$work/current/$module.json" "API/$module.json"; done
            read_version "$repository" >API/baseline-version
            echo "baseline updated: API/*.json, API/baseline-version $(cat API/baseline-version); commit them"
        fi
        exit "$status"
        ;;
    *)
        echo "usage: Scripts/api-check.sh [--update | --self-test]" >&2
        exit 64
        ;;
esac
