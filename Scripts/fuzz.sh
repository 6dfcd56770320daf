#!/usr/bin/env bash
# Fuzzes the parsers that take outside text, with libFuzzer, for a fixed time each.
#
#   Scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      default: 60 seconds, every target
#
# Targets (checks in Tests/ReliabilityTests/FuzzChecks.swift):
#   route            Route(parsing:) and Route(type:json:), and Route's Codable
#   import           StateDocument(utf8:), then importDocument into an in-memory store
#   navigation-path  NavigationPathCoding.routes(from:) and back
#   arguments        statectl's argument parser (arguments split at NUL bytes)
#
# Builds .build/fuzz/statestore-fuzz with -sanitize=fuzzer,address and runs each target from its
# seeds (Fuzz/corpus/TARGET) plus what earlier runs found (.build/fuzz/corpus/TARGET). An input
# that crashes or breaks a check is copied to Fuzz/regressions/TARGET/, which `swift test` replays
# (FuzzCorpusTests): fix the bug, keep the file. Exits 1 when anything was found.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(route import navigation-path arguments)
out=.build/fuzz
mkdir -p "$out/modules" "$out/logs"

echo "== build $out/statestore-fuzz"
# One package name for every module, as SwiftPM passes one (its identity, the folder's name), so
# that the checks reach the library's `package` declarations.
flags=(-sanitize=fuzzer,address -O -g -swift-version 6 -package-name statestore -I Sources/CSQLite -I "$out/modules")
# shellcheck disable=SC2046
swiftc "${flags[@]}" -parse-as-library -wmo -num-threads 0 -module-name StateStore \
    -emit-module -emit-module-path "$out/modules/StateStore.swiftmodule" \
    -c -o "$out/StateStore.o" $(find Sources/StateStore -name '*.swift' | sort)
# shellcheck disable=SC2046
# -enable-testing: the checks reach statectl's parser with `@testable import`, as an executable's tests do.
swiftc "${flags[@]}" -parse-as-library -enable-testing -wmo -num-threads 0 -module-name statectl \
    -emit-module -emit-module-path "$out/modules/statectl.swiftmodule" \
    -c -o "$out/statectl.o" $(find Sources/statectl -name '*.swift' ! -name main.swift | sort)
swiftc "${flags[@]}" -parse-as-library -module-name StateStoreFuzz \
    Fuzz/Entry.swift Tests/ReliabilityTests/FuzzChecks.swift "$out/StateStore.o" "$out/statectl.o" \
    -use-ld=lld -lsqlite3 -o "$out/statestore-fuzz"

found=0
for target in "${targets[@]}"; do
    case $target in
        route | navigation-path) max_len=8192 dict=Fuzz/json.dict ;;
        import) max_len=65536 dict=Fuzz/json.dict ;;
        arguments) max_len=1024 dict=Fuzz/arguments.dict ;;
        *) echo "error: unknown target '$target'" >&2; exit 64 ;;
    esac
    corpus="$out/corpus/$target"
    artifacts="$out/artifacts/$target/"
    mkdir -p "$corpus" "$artifacts" "Fuzz/corpus/$target"
    rm -f "$artifacts"*
    echo "== fuzz $target for ${seconds}s (log: $out/logs/$target.log)"
    set +e
    # SWIFT_BACKTRACE off: Swift's backtracer and AddressSanitizer trip over each other on a finding.
    SWIFT_BACKTRACE=enable=no FUZZ_TARGET=$target "$out/statestore-fuzz" "$corpus" "Fuzz/corpus/$target" \
        -max_total_time="$seconds" -max_len="$max_len" -dict="$dict" -timeout=20 -rss_limit_mb=4096 \
        -artifact_prefix="$artifacts" -print_final_stats=1 >"$out/logs/$target.log" 2>&1
    status=$?
    set -e
    grep -E '^(stat::number_of_executed_units|stat::new_units_added|#[0-9]+ +DONE)' "$out/logs/$target.log" || true
    if [ $status -ne 0 ] || [ -n "$(ls -A "$artifacts")" ]; then
        found=1
        mkdir -p "Fuzz/regressions/$target"
        for artifact in "$artifacts"*; do
            [ -e "$artifact" ] || continue
            cp "$artifact" "Fuzz/regressions/$target/"
            echo "FOUND ($target): Fuzz/regressions/$target/$(basename "$artifact")"
        done
        grep -E 'finding:|ERROR: AddressSanitizer|Fatal error|deadly signal|timeout' "$out/logs/$target.log" | head -n 5 || true
    fi
done
exit $found
