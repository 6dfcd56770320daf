#!/usr/bin/env bash
# The README's install line, used as a client uses it: resolved and built in a scratch package.
#
#   Scripts/check-install.sh              README.md's `.package(url: …)` line must be spelled the same
#                                         in every Markdown file that has one (README.md,
#                                         Documentation/, Examples/, the DocC catalogs); then a scratch
#                                         package in a temporary folder depends on this repository
#                                         through that very line, its URL made a file:// URL of a
#                                         scratch clone (what is tracked, and what is new but not
#                                         ignored, as it is in the work tree, committed on the branch
#                                         the line names, or tagged with the version it names), and
#                                         `swift package resolve` and `swift run` must succeed: a
#                                         client importing StateStore, StateStoreHost and
#                                         StateStoreSwiftUI, as the README's product line brings
#                                         them, writes and reads a window.
#   Scripts/check-install.sh --self-test  a second spelling of the line, and a branch the
#                                         repository does not have, each seen to fail
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

# Resolves and runs a client of the repository at $1 (a folder) through LINE; prints what failed.
client() { # WORK LINE
    local work=$1 line=$2 url name clone branch version
    url=$(sed -E 's/^\.package\(url: "([^"]*)".*$/\1/' <<<"$line")
    name=$(basename "$url" .git)
    clone=$work/$name
    # The work tree as it is, tracked and new files alike (links kept), as one commit of its own.
    mkdir -p "$clone"
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        [ -e "$file" ] || [ -L "$file" ] && printf '%s\0' "$file"
    done | tar --null -T - -cf - | tar -xf - -C "$clone"
    branch=$(sed -nE 's/.*branch: "([^"]*)".*/\1/p' <<<"$line")
    version=$(sed -nE 's/.*(from|exact): "([^"]*)".*/\2/p' <<<"$line")
    (
        cd "$clone"
        git init -q -b "${branch:-main}"
        git add -A
        git -c user.name=check -c user.email=check@example.com commit -q -m "the work tree"
        if [ -n "$version" ]; then
            git -C "$root" rev-parse -q --verify "refs/tags/$version" >/dev/null \
                || { echo "the line names version $version, which is not tagged in this repository"; exit 1; }
            git tag "$version"
        fi
    ) || return 1
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
    sed 's/branch: "main"/branch: "elsewhere"/' README.md >"$work/README.md"
    if [ -z "$(spellings "$work/README.md")" ]; then
        echo "error: self-test: an install line spelled another way in README.md was not reported" >&2
        exit 1
    fi
    if (client "$work" "$(install_line README.md | sed 's/branch: "main"/exact: "99.0.0"/')") >"$work/out" 2>&1 \
        || ! grep -q "not tagged in this repository" "$work/out"; then
        cat "$work/out" >&2
        echo "error: self-test: a version this repository has not tagged was not reported" >&2
        exit 1
    fi
    echo "Install check self-test: a second spelling and an untagged version each fail"
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
if ! failure=$(client "$work" "$line" 2>&1); then
    echo "$failure" >&2
    echo "error: a scratch package could not use README.md's line: $line" >&2
    exit 1
fi
echo "Install line: $line — one spelling; resolved and built from a scratch clone, and its client ran: $(cat "$work/run.log")"
