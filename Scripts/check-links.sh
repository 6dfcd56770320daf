#!/usr/bin/env bash
# Checks the links of the repository's Markdown, and README.md's DocC symbol links.
#
#   Scripts/check-links.sh                   every Markdown file below; fails on a broken link
#   Scripts/check-links.sh --list-external   the same, and lists the http(s) links it does not fetch
#   Scripts/check-links.sh --self-test       shows each check failing when it should, on a scratch folder
#
# The files: README.md, CHANGELOG.md, Benchmarks/README.md and Documentation/*.md where they exist,
# and every other *.md of the repository but those in .build, .swiftpm, Packages, hidden folders
# and the DocC catalogs (Sources/MODULE/MODULE.docc: docc checks their links, Scripts/docs.sh). The
# Markdown is read by Scripts/check-links/markdown_links.py (python3), outside fenced code blocks,
# code spans and HTML comments. Each finding fails the run:
#   - a relative link, `[text](path)`, `[text](path#anchor)`, `![alt](path)`, a reference
#     definition `[label]: path` or an HTML `href`/`src`, whose path (from the Markdown file's
#     folder, or from the repository's root when it starts with `/`) names no file or folder, or
#     leads out of the repository (GitHub cannot show a file beside it);
#   - an `#anchor` into a Markdown file (or `#anchor` alone, into the file itself) that matches no
#     heading there, by GitHub's rule (lower case, punctuation but `-` and `_` dropped, each space a
#     hyphen, `-1`, `-2` … on repeated headings), nor an HTML `id` or `name`. A link into a DocC
#     catalog's article is a link to a file: its anchors are not checked;
#   - in README.md, a DocC symbol link, ``Name`` or ``Type/member(label:)`` (a code span between
#     double backticks with no backtick inside; an optional leading `/` and module name, and DocC's
#     disambiguation suffixes, `-swift.struct`, `-1a2b3`, are allowed), that names no public
#     symbol of StateStore or StateStoreHost (their symbol graphs, swift-symbolgraph-extract on the
#     debug build, as Scripts/docs.sh makes them) or StateStoreSwiftUI (compiled only where SwiftUI
#     exists: the `public` declarations of Sources/StateStoreSwiftUI, read as text).
# External links (http, https, mailto, bare URLs GitHub links) are never fetched: CI has no
# internet.
#
# What it cannot see: whether an external link works; an anchor into anything but Markdown (a
# source file's `#L12`); headings GitHub renders in ways this approximation does not (emphasis
# with underscores next to words, HTML entities, emoji shortcodes, a heading inside a list or a
# quote); an anchor that differs from its heading's only in case (reported, though a browser may
# still find it); indented code blocks (a link in one is checked as a link); reference links
# whose label is not defined (GitHub shows them as text); symbol links as DocC resolves them
# relative to a page (README.md is no page: its links are read from the module down), and
# whether a disambiguation suffix picks the right overload; a StateStoreSwiftUI declaration the
# text reading misses (in a `public extension`, made by a macro).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
markdown_links=$root/Scripts/check-links/markdown_links.py

# symbol_paths GRAPHS_DIR: the path of each symbol of the symbol graphs in GRAPHS_DIR, one a line
# (`Type/member(label:)`), and for a member of another module's type (MODULE@OTHER.symbols.json)
# the path from that module too (`OTHER/Type/member`), as DocC names it.
symbol_paths() {
    local files=("$1"/*.symbols.json)
    [ -e "${files[0]}" ] || { echo "error: no symbol graphs in $1" >&2; return 1; }
    jq -r '(input_filename | split("/") | last | capture("^[^@]+(@(?<other>[^.]+))?\\.symbols\\.json$").other) as $other
        | .symbols[] | (.pathComponents | join("/")) as $path
        | $path, (if $other then "\($other)/\($path)" else empty end)' "${files[@]}" | sort -u
}

# extract_graphs MODULES_DIR OUT MODULE...: each MODULE's public symbol graph, from the
# .swiftmodule files in MODULES_DIR, into OUT.
extract_graphs() {
    local modules=$1 out=$2 triple module
    shift 2
    triple=$(swiftc -print-target-info | jq -r .target.triple)
    rm -rf "$out"
    mkdir -p "$out"
    for module in "$@"; do
        swift-symbolgraph-extract -module-name "$module" -I "$modules" -I "$root/Sources/CSQLite" \
            -target "$triple" -minimum-access-level public -emit-extension-block-symbols -output-dir "$out"
    done
}

# check ROOT SYMBOLS SWIFTUI_DIR MODULES [--list-external]: the Markdown files of ROOT, README.md's
# symbol links against the symbol paths in the file SYMBOLS and SWIFTUI_DIR's public declarations
# (MODULES: the module names a link may begin with); 1 on any broken link.
check() {
    local dir=$1 symbols=$2 swiftui=$3 modules=$4 extra=() files=() absent=() file
    [ "${5:-}" != --list-external ] || extra+=(--list-external)
    for file in README.md CHANGELOG.md Benchmarks/README.md "Documentation/*.md"; do
        if ! compgen -G "$dir/$file" >/dev/null; then absent+=("$file"); fi
    done
    while IFS= read -r file; do files+=("${file#./}"); done < <(
        cd "$dir" && find . \( -name .build -o -name .swiftpm -o -name Packages -o -name '*.docc' \
            -o \( -name '.?*' -type d \) \) -prune -o -type f -name '*.md' -print | LC_ALL=C sort)
    [ ${#absent[@]} -eq 0 ] || echo "not there (yet), so not checked: ${absent[*]}"
    [ -z "$swiftui" ] || extra+=(--swiftui "$swiftui")
    python3 "$markdown_links" --root "$dir" --symbols "$symbols" --modules "$modules" \
        --symbol-links README.md "${extra[@]}" -- "${files[@]}"
}

# edit SED-EXPRESSION FILE: sed in place, as BSD and GNU sed both do it.
edit() { sed -e "$1" "$2" >"$2.edited" && mv "$2.edited" "$2"; }

# shellcheck disable=SC2016 # the backticks below are Markdown's, in sed expressions
self_test() {
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # A scratch module and its symbol graph, made as the real check makes StateStore's.
    mkdir -p "$work/modules"
    cat >"$work/Sample.swift" <<'EOF'
/// A thing.
public struct Thing {
    /// Opens it.
    public func open(fast: Bool) {}
    /// Its size.
    public var size: Int { 0 }
}
extension Int {
    /// Twice this.
    public var doubled: Int { self * 2 }
}
EOF
    swiftc -emit-module -parse-as-library -swift-version 6 -module-name Sample \
        -emit-module-path "$work/modules/Sample.swiftmodule" "$work/Sample.swift"
    extract_graphs "$work/modules" "$work/graphs" Sample
    symbol_paths "$work/graphs" >"$work/symbols"

    # The sample repository: every kind of link that must pass, and text that is no link.
    write_sample() {
        rm -rf "$work/repo"
        mkdir -p "$work/repo/docs/My Notes" "$work/repo/SampleUI" "$work/repo/Sources/Sample/Sample.docc" \
            "$work/repo/.build"
        cat >"$work/repo/README.md" <<'EOF'
# Sample

See [the guide](docs/Guide.md), [its setup](docs/Guide.md#setup--first-steps), [the second
one](docs/Guide.md#setup--first-steps-1), [the folder](docs/), [from the root](/docs/Guide.md),
[notes](<docs/My Notes/>), [notes again](docs/My%20Notes), [below](#the-api) and
[an article](Sources/Sample/Sample.docc/Article.md#whatever). ![A picture](docs/picture.png "A
title"), [![a badge](docs/picture.png)](docs/Guide.md) and a [reference][guide]. External, not
fetched: [a site](https://example.com/x),
<https://example.org>, https://example.net/page.

Not links: `[code](missing.md)`, `` t`x` ``, ``` ``Missing`` ```, \[escaped](missing.md).

<!-- [commented out](missing.md) -->

```sh
echo "[fenced](missing.md) ``Missing``"
```

## The API

``Thing``, ``Thing/open(fast:)``, ``Sample/Thing/size``, ``/Sample/Thing``,
``Thing/open(fast:)-1a2b3``, ``Swift/Int/doubled``, ``Sample``, ``UIThing/init(_:content:)``,
``View/decorated(with:)``.

| a | table |
| --- | --- |
| [the guide](docs/Guide.md) | ``Thing/size`` |

[guide]: docs/Guide.md
EOF
        cat >"$work/repo/docs/Guide.md" <<'EOF'
# The guide

## Setup & first steps

## Setup & first steps

Back to [the README](../README.md#sample).
EOF
        printf 'not really a picture\n' >"$work/repo/docs/picture.png"
        printf '# Article\n' >"$work/repo/Sources/Sample/Sample.docc/Article.md"
        printf '# Not checked\n\n[broken](nowhere.md)\n' >"$work/repo/.build/Skipped.md"
        cat >"$work/repo/SampleUI/UIThing.swift" <<'EOF'
#if canImport(SwiftUI)
    import SwiftUI

    /// A view.
    public struct UIThing<Content: View>: View {
        /// Makes one.
        public init(_ title: String, @ViewBuilder content: @escaping () -> Content) {}
        /// The view.
        public var body: some View { EmptyView() }
    }

    extension View {
        /// Decorated.
        public func decorated(with style: Int) -> some View { self }
    }
#endif
EOF
    }
    check_sample() { # EXPECTED-STATUS TEXT-IN-THE-OUTPUT DESCRIPTION [--list-external]
        local status=0
        check "$work/repo" "$work/symbols" "$work/repo/SampleUI" "Sample SampleUI" "${4:-}" >"$work/output" 2>&1 ||
            status=$?
        if [ "$status" -ne "$1" ] || ! grep -q -F -- "$2" "$work/output"; then
            cat "$work/output" >&2
            echo "self-test failed: $3: expected status $1 and '$2' in the output, got status $status" >&2
            exit 1
        fi
        echo "ok: $3"
    }

    write_sample
    check_sample 0 "2 files: 15 relative links (4 into a heading), 10 symbol links; 3 external links" \
        "a repository whose links all work passes"
    check_sample 0 "external (not fetched): README.md:9: https://example.net/page" \
        "--list-external lists the links not fetched" --list-external

    write_sample
    edit 's|\[the folder\](docs/)|[the folder](doc/)|' "$work/repo/README.md"
    check_sample 1 "README.md:4: doc/: no such file or folder" "a link to a missing folder fails"

    write_sample
    edit 's|\[the README\](../README.md#sample)|[the README](../READ.md#sample)|' "$work/repo/docs/Guide.md"
    check_sample 1 "docs/Guide.md:7: ../READ.md#sample: no such file or folder (READ.md)" \
        "a link to a missing file, in another file than README.md, fails"

    write_sample
    edit 's|\[!\[a badge\](docs/picture.png)\]|[![a badge](docs/pic.png)]|' "$work/repo/README.md"
    check_sample 1 "README.md:7: docs/pic.png: no such file or folder" "a missing picture inside a link fails"

    write_sample
    edit 's|^\[guide\]: docs/Guide.md|[guide]: docs/Gide.md|' "$work/repo/README.md"
    check_sample 1 "README.md:29: docs/Gide.md: no such file or folder" "a broken reference definition fails"

    write_sample
    edit 's|\[from the root\](/docs/Guide.md)|[from the root](../outside.md)|' "$work/repo/README.md"
    printf '# Outside\n' >"$work/outside.md"
    check_sample 1 "README.md:4: ../outside.md: outside the repository" "a link out of the repository fails"

    write_sample
    edit 's|#setup--first-steps-1|#setup--first-steps-2|' "$work/repo/README.md"
    check_sample 1 "README.md:3: docs/Guide.md#setup--first-steps-2: no heading with the anchor #setup--first-steps-2" \
        "a broken anchor into another file fails"

    write_sample
    edit 's|\[below\](#the-api)|[below](#the-apis)|' "$work/repo/README.md"
    check_sample 1 "#the-apis: no heading with the anchor #the-apis in README.md; did you mean #the-api?" \
        "a broken anchor into the same file fails"

    write_sample
    edit 's|``Thing/open(fast:)``|``Thing/open(quickly:)``|' "$work/repo/README.md"
    check_sample 1 "README.md:21: \`\`Thing/open(quickly:)\`\`: not a public symbol of Sample, SampleUI" \
        "a broken symbol link fails"

    write_sample
    edit 's|``UIThing/init(_:content:)``|``UIThing/init(content:)``|' "$work/repo/README.md"
    check_sample 1 "\`\`UIThing/init(content:)\`\`: not a public symbol" \
        "a broken symbol link into the SwiftUI module (read as text) fails"

    write_sample
    edit 's|Not links: |Not links: [fixed](docs/Gude.md), |' "$work/repo/README.md"
    edit 's|``Thing``, |``Thing``, ``Thing/close()``, |' "$work/repo/README.md"
    check_sample 1 "2 broken" "each broken link is reported, not only the first"
    echo "check-links.sh self-test: each kind of broken link fails, working links pass"
}

case "${1:-}" in
    --self-test)
        self_test
        ;;
    --list-external | "")
        echo "== build StateStore and StateStoreHost (their symbol graphs)"
        swift build --target StateStoreHost >/dev/null
        graphs=.build/check-links/symbol-graphs
        extract_graphs "$(swift build --show-bin-path)/Modules" "$graphs" StateStore StateStoreHost
        symbol_paths "$graphs" >"$graphs/paths.txt"
        echo "== links"
        check "$root" "$graphs/paths.txt" Sources/StateStoreSwiftUI "StateStore StateStoreHost StateStoreSwiftUI" \
            "${1:-}"
        ;;
    *)
        echo "usage: Scripts/check-links.sh [--list-external | --self-test]" >&2
        exit 64
        ;;
esac
