#!/usr/bin/env bash
# Fails when the engine's rooms do not stack: when a file of Sources/StateStore uses a name that a
# room after its own declares (Documentation/Development.md, "The engine's rooms").
#
#   Scripts/check-layers.sh              the check, on Sources/StateStore
#   Scripts/check-layers.sh --self-test  plants uses against the direction, and a file outside
#                                        the rooms, in scratch copies, and sees each one fail
#
# The rooms, in order (each may use only itself and the rooms before it):
#
#   JSON Model Rule SQLite Wake Store Changes
#
# The compiler decides, not patterns: for each room, its files and those of every room before it are
# type-checked alone (`swiftc -typecheck`, Swift 6 mode, as the one module StateStore, so that
# `package` and internal names resolve as in the build). A file that uses anything a later room
# declares — a type, a function, a member a later extension adds, a conformance, a default
# argument — finds nothing there and fails to compile. The whole module is type-checked first, so
# that a failure is the direction's and never the command's. Besides:
#   - every Swift file of Sources/StateStore sits in a room (a folder named above);
#   - only SQLite/ imports the SQLite C module (the name Sources/CSQLite/module.modulemap declares).
#
# What it cannot see: code in `#if` branches this platform does not compile (Darwin's, on Linux:
# Scripts/check-apple.sh compiles them, but as one module); and a call in a lower room that
# compiles alone to an overload of its own where the whole module would pick a better one later
# (the name then means two things, which a reader would catch sooner than this check).
set -euo pipefail
cd "$(dirname "$0")/.."

rooms=(JSON Model Rule SQLite Wake Store Changes)
sqlite_room=SQLite

# The SQLite C module's name, as the module map declares it.
sqlite_module=$(sed -n 's/^ *module \([A-Za-z_][A-Za-z0-9_]*\) .*/\1/p' Sources/CSQLite/module.modulemap | head -n 1)
if [ -z "$sqlite_module" ]; then
    echo "error: no module name in Sources/CSQLite/module.modulemap" >&2
    exit 1
fi

# Type-checks the files given as the module StateStore; the compiler's output to $log.
typecheck() {
    local root=$1
    shift
    swiftc -typecheck -parse-as-library -swift-version 6 -module-name StateStore -package-name statestore \
        -I "$root/Sources/CSQLite" "$@" >"$log" 2>&1
}

# The check, on the tree at $1 (the repository, or a scratch copy of its Sources).
check() {
    local root=$1 engine=$1/Sources/StateStore status=0 room file files=() before=() k
    log=$(mktemp)
    # Every Swift file in a room.
    while IFS= read -r file; do
        room=${file#"$engine/"}
        room=${room%%/*}
        if [[ "$file" == "$engine/$room" ]] || [[ " ${rooms[*]} " != *" $room "* ]]; then
            echo "error: ${file#"$root/"} is in no room: put it in one of ${rooms[*]}" >&2
            status=1
        fi
    done < <(find "$engine" -name '*.swift' | sort)
    # The C module, imported by SQLite/ alone.
    while IFS= read -r file; do
        echo "error: ${file#"$root/"} imports $sqlite_module: only $sqlite_room/ may" >&2
        status=1
    done < <(grep -rlE "^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+$sqlite_module\b" "$engine" \
        --include='*.swift' | grep -v "^$engine/$sqlite_room/" || true)
    [ "$status" = 0 ] || return 1

    mapfile -t files < <(find "$engine" -name '*.swift' | sort)
    if ! typecheck "$root" "${files[@]}"; then
        cat "$log" >&2
        echo "error: the whole of Sources/StateStore does not type-check with this script's flags: fix that first" >&2
        return 1
    fi
    for ((k = 0; k < ${#rooms[@]} - 1; k++)); do
        room=${rooms[k]}
        mapfile -t files < <(find "$engine/$room" -name '*.swift' | sort)
        before+=("${files[@]}")
        if ! typecheck "$root" "${before[@]}"; then
            grep -E '^[^ ].*:[0-9]+:[0-9]+: error: ' "$log" | sed "s|^$root/||" | sort -u >&2
            echo "error: $room/ (or a room before it) uses what a later room declares: ${rooms[*]:k+1}." \
                "Move the declaration down, or the use up (Documentation/Development.md, \"The engine's rooms\")" >&2
            return 1
        fi
        echo "$room: type-checks with the ${k} room(s) before it, alone"
    done
    rm -f "$log"
}

if [ "${1-}" != --self-test ]; then
    [ $# = 0 ] || {
        echo "usage: Scripts/check-layers.sh [--self-test]" >&2
        exit 64
    }
    check "$PWD"
    echo "The rooms stack: ${rooms[*]}"
    exit 0
fi

# Self-test: each plant in a fresh scratch copy of the engine and the C module map, where the
# check must fail and say what was planted.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fresh() {
    rm -rf "$scratch/Sources"
    mkdir -p "$scratch/Sources"
    cp -R Sources/StateStore Sources/CSQLite "$scratch/Sources/"
}
expect_failure() {
    local what=$1 expected=$2 output
    if output=$(check "$scratch" 2>&1); then
        echo "$output" >&2
        echo "error: self-test: the check passed $what" >&2
        exit 1
    fi
    if ! grep -qF -- "$expected" <<<"$output"; then
        echo "$output" >&2
        echo "error: self-test: the check failed $what without saying '$expected'" >&2
        exit 1
    fi
    echo "self-test: fails $what"
}

fresh
printf '%s\n' '/// Planted: a model value that reads the store.' \
    'func plantedCount(in store: WindowStore) -> Int { 0 }' >"$scratch/Sources/StateStore/Model/Planted.swift"
expect_failure "on a type of Store/ used in Model/" "Model/Planted.swift:2"

fresh
printf '%s\n' '/// Planted: JSON writing a model value.' 'extension JSONWriter {' \
    '    mutating func planted(_ time: Timestamp) { timestamp(time) }' '}' \
    >"$scratch/Sources/StateStore/JSON/Planted.swift"
expect_failure "on a type and an extension's member of Model/ used in JSON/" "JSON/Planted.swift:3"

fresh
printf '%s\n' '/// Planted: a rule that opens a connection.' 'extension WindowState {' \
    '    func planted(_ database: Database) throws(StateStoreError) { try database.execute("") }' '}' \
    >"$scratch/Sources/StateStore/Rule/Planted.swift"
expect_failure "on SQLite/ used in Rule/" "Rule/Planted.swift:3"

fresh
printf '%s\n' '/// Planted: a connection reading the change log, which Store/ adds to it.' 'extension Database {' \
    '    func planted() throws(StateStoreError) -> Int64 { try changeLogHighWaterMark() }' '}' \
    >"$scratch/Sources/StateStore/SQLite/Planted.swift"
expect_failure "on a member Store/ adds to a type of SQLite/, used there" "SQLite/Planted.swift:3"

fresh
printf '%s\n' '/// Planted: a store reading a change feed.' 'extension WindowStore {' \
    '    func planted(_ feed: ChangeFeed) throws(StateStoreError) { _ = try feed.poll() }' '}' \
    >"$scratch/Sources/StateStore/Store/WindowStore/Planted.swift"
expect_failure "on Changes/ used in Store/" "Store/WindowStore/Planted.swift:3"

fresh
printf '%s\n' '/// Planted: outside every room.' 'func planted() {}' >"$scratch/Sources/StateStore/Planted.swift"
expect_failure "on a file outside the rooms" "Sources/StateStore/Planted.swift is in no room"

fresh
printf '%s\n' "import $sqlite_module" '' '/// Planted: the C module in Model/.' 'func planted() {}' \
    >"$scratch/Sources/StateStore/Model/Planted.swift"
expect_failure "on the C module imported outside SQLite/" "Model/Planted.swift imports $sqlite_module"

echo "self-test: the check fails on each planted use against the direction"
