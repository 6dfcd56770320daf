#!/usr/bin/env bash
# Prints the line coverage of Sources/ measured by the last `swift test --enable-code-coverage`.
#
#   swift build --build-tests --enable-code-coverage   # or let swift test build it
#   swift test --skip-build --enable-code-coverage
#   Scripts/coverage.sh                                # the table, then the line for Sources/
#
# SwiftPM writes each process's counters to .build/debug/codecov/*.profraw (LLVM_PROFILE_FILE, one
# file a process) and merges them into default.profdata, which `swift test --show-codecov-path`'s
# JSON is exported from. The tests also run the built statectl, mailhost and statestore-stress as
# child processes; they inherit LLVM_PROFILE_FILE, so their counters are in default.profdata too,
# and this report reads those binaries beside the test bundle. StateStoreSwiftUI (compiled only
# where SwiftUI exists) is not counted; StateStoreMigrationEmbedder, a tool of the repository run by
# Scripts/embed-migrations.sh and never by the tests, shows 0 %. No threshold: the figure is
# reported, not judged.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(swift build --show-bin-path)
profdata=$bin/codecov/default.profdata
[ -f "$profdata" ] || {
    echo "error: no $profdata: run swift test --enable-code-coverage first" >&2
    exit 1
}
# The toolchain's llvm-cov: a system one may not read this toolchain's profile format.
if command -v xcrun >/dev/null 2>&1; then
    llvm_cov=(xcrun llvm-cov)
else
    llvm_cov=("$(dirname "$(readlink -f "$(command -v swift)")")/llvm-cov")
fi
objects=("$bin/StateStorePackageTests.xctest")
for executable in statectl mailhost statestore-stress; do
    [ ! -x "$bin/$executable" ] || objects+=(-object "$bin/$executable")
done

"${llvm_cov[@]}" report "${objects[@]}" -instr-profile "$profdata" "$PWD/Sources"
"${llvm_cov[@]}" export -summary-only "${objects[@]}" -instr-profile "$profdata" "$PWD/Sources" |
    jq -r --arg sources "$PWD/Sources/" '
        def line($name; $covered; $count):
            "\($name): \($covered * 10000 / $count | round / 100)% (\($covered) of \($count) lines)";
        (.data[0].files | group_by(.filename | ltrimstr($sources) | split("/")[0])[]
            | line("  Sources/" + (.[0].filename | ltrimstr($sources) | split("/")[0]);
                map(.summary.lines.covered) | add; map(.summary.lines.count) | add)),
        (.data[0].totals.lines | line("line coverage of Sources/"; .covered; .count))'
