#!/usr/bin/env bash
# The README's install line, used as a client uses it: resolved and built in a scratch package.
#
#   Scripts/check-install.sh              README.md's `.package(url: …)` line must be spelled the same
#                                         in every Markdown file that has one (README.md,
#                                         Documentation/, Examples/, the DocC catalogs), and the
#                                         version it names must be a release of CHANGELOG.md: one
#                                         tagged in this repository, or, while none is, the version
#                                         being prepared (CHANGELOG.md's newest section and
#                                         `statectl --version`'s), whose tag is made at its release
#                                         (Documentation/Development.md, "Releasing"). Then a scratch
#                                         package in a temporary folder depends on this repository
#                                         through that very line, its URL made a file:// URL of a
#                                         scratch clone: of the tag, where this repository has it;
#                                         otherwise of the work tree (what is tracked, and what is
#                                         new but not ignored), committed and tagged there with the
#                                         version (or on the branch a `branch:` line names). Offline,
#                                         `swift package resolve` and `swift run` must succeed: a
#                                         client importing StateStore, StateStoreHost and
#                                         StateStoreSwiftUI, as the README's product line brings
#                                         them, writes and reads a window.
#   Scripts/check-install.sh --self-test  a second spelling of the line, a version that is not a
#                                         release, and a requirement the tag does not meet, each
#                                         seen to fail
#
# Offline: a file:// URL needs no network. About a minute and a half here (the client's debug
# build of the package).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The line, as written in README.md, without a trailing comma.
install_line() { # FILE
    grep -m1 -E '^\s*\.package\(url: ' "$1" | sed -e 's/^[[:space:]]*//' -e 's/,[[:space:]]*$//'
}

# Every Markdown file with an install line, and each one's line, that differs from README.md's.
spellings() { # README
    local expected file line
    expected=$(install_line "$1")
    while IFS= read -r file; do
        while IFS= read -r line; do
            line=$(sed -e 's/^[[:space:]]*//' -e 's/,[[:space:]]*$//' <<<"$line")
            [ "$line" = "$expected" ] || echo "$file: $line"
        done < <(grep -E '^\s*\.package\(url: ' "$file")
    done < <(find README.md Documentation Examples Sources -name '*.md' -not -path '*/.build/*' | sort)
}

# The version a line names (from:, exact:, .upToNextMinor(from:) …), or nothing for a branch.
line_version() { # LINE
    sed -nE 's/.*(from|exact): "([^"]*)".*/\2/p' <<<"$1"
}

# Why the version the line names is not one a client can be given, or nothing.
version_problem() { # VERSION
    local version=$1 prepared newest
    prepared=$(sed -nE 's/^ *static let version = "([^"]*)".*/\1/p' Sources/statectl/Statectl.swift)
    newest=$(sed -nE 's/^## ([0-9][^ ]*).*/\1/p' CHANGELOG.md | head -1)
    if ! grep -q -E "^## ${version//./\\.}( |$)" CHANGELOG.md; then
        echo "the line names version $version, which CHANGELOG.md has no section for"
    elif ! git rev-parse -q --verify "refs/tags/$version" >/dev/null \
        && { [ "$version" != "$prepared" ] || [ "$version" != "$newest" ]; }; then
        echo "the line names version $version, which is neither tagged here nor the version being prepared" \
            "($prepared, CHANGELOG.md's newest section $newest)"
    fi
}

# Resolves and runs a client of a scratch clone through LINE, the clone tagged TAG (a version) or
# committed on the line's branch; prints what failed.
client() { # WORK LINE [TAG]
    local work=$1 line=$2 tag=${3-} url name clone branch
    url=$(sed -E 's/^\.package\(url: "([^"]*)".*$/\1/' <<<"$line")
    name=$(basename "$url" .git)
    clone=$work/$name
    branch=$(sed -nE 's/.*branch: "([^"]*)".*/\1/p' <<<"$line")
    if [ -n "$tag" ] && git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
        # A release: the tag itself.
        git clone -q --no-checkout "$root" "$clone"
    else
        # The work tree as it is, tracked and new files alike (links kept), as one commit of its own.
        mkdir -p "$clone"
        git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
            [ -e "$file" ] || [ -L "$file" ] && printf '%s\0' "$file"
        done | tar --null -T - -cf - | tar -xf - -C "$clone"
        (
            cd "$clone"
            git init -q -b "${branch:-main}"
            git add -A
            git -c user.name=check -c user.email=check@example.com commit -q -m "the work tree"
            [ -z "$tag" ] || git tag "$tag"
        ) || return 1
    fi
    mkdir -p "$work/Client/Sources/Client"
    cat >"$work/Client/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Client",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [
        ${line/"$url"/"file://$clone"}
    ],
    targets: [
        .executableTarget(
            name: "Client",
            dependencies: [$(grep -m1 -E '^\s*\.product\(name: ' README.md | sed -e 's/^[[:space:]]*//' -e 's/,[[:space:]]*$//')]
        )
    ]
)
SWIFT
    cat >"$work/Client/Sources/Client/main.swift" <<'SWIFT'
import StateStore
import StateStoreHost
import StateStoreSwiftUI

let store = try WindowStore.inMemory()
try store.update(session: "main", window: "w") { $0.push(try Route(type: "Folder", json: #""inbox""#)) }
let path = try store.window(session: "main", window: "w")?.path ?? []
print("client: \(path.count) route, \(path.first?.type ?? "none")")
SWIFT
    (
        cd "$work/Client"
        swift package resolve >"$work/resolve.log" 2>&1 || { cat "$work/resolve.log"; echo "swift package resolve failed"; exit 1; }
        swift run -q Client >"$work/run.log" 2>&1 || { tail -30 "$work/run.log"; echo "swift run failed"; exit 1; }
        grep -q '^client: 1 route, Folder$' "$work/run.log" || { cat "$work/run.log"; echo "the client printed the wrong thing"; exit 1; }
    )
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "${1-}" = --self-test ]; then
    line=$(install_line README.md)
    version=$(line_version "$line")
    [ -n "$version" ] || { echo "error: self-test: README.md's line names no version: $line" >&2; exit 1; }
    sed "s/\"$version\"/\"$version-other\"/" README.md >"$work/README.md"
    if [ -z "$(spellings "$work/README.md")" ]; then
        echo "error: self-test: an install line spelled another way in README.md was not reported" >&2
        exit 1
    fi
    if ! version_problem 0.1.1 | grep -q "no section" || ! version_problem 0.2.0 | grep -q "neither tagged"; then
        echo "error: self-test: a version that is not a release (0.1.1, 0.2.0) was not reported" >&2
        exit 1
    fi
    # The scratch clone tagged with the version, the line asking for the next minor one.
    next=$(awk -F. '{ print $1 "." $2 + 1 ".0" }' <<<"$version")
    if (client "$work" "${line/\"$version\"/\"$next\"}" "$version") >"$work/out" 2>&1 \
        || ! grep -q "swift package resolve failed" "$work/out"; then
        cat "$work/out" >&2
        echo "error: self-test: a line asking for $next resolved against a clone tagged $version" >&2
        exit 1
    fi
    echo "Install check self-test: a second spelling, a version that is not a release and a requirement" \
        "the tag does not meet ($next against $version) each fail"
    exit 0
fi

line=$(install_line README.md)
[ -n "$line" ] || { echo "error: README.md has no .package(url: …) line" >&2; exit 1; }
others=$(spellings README.md)
if [ -n "$others" ]; then
    echo "error: the install line is spelled otherwise than README.md's ($line):" >&2
    echo "$others" >&2
    exit 1
fi
version=$(line_version "$line")
if [ -n "$version" ]; then
    problem=$(version_problem "$version")
    [ -z "$problem" ] || { echo "error: $problem" >&2; exit 1; }
fi
if ! failure=$(client "$work" "$line" "$version" 2>&1); then
    echo "$failure" >&2
    echo "error: a scratch package could not use README.md's line: $line" >&2
    exit 1
fi
if [ -z "$version" ]; then
    against="a clone of the work tree on its branch"
elif git rev-parse -q --verify "refs/tags/$version" >/dev/null; then
    against="a clone of the tag $version"
else
    against="a clone of the work tree tagged $version (the version being prepared: not tagged here yet)"
fi
echo "Install line: $line — one spelling; resolved against $against and built, and its client ran: $(cat "$work/run.log")"
