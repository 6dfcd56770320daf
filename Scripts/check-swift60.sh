#!/usr/bin/env bash
# Fails on Swift syntax newer than Swift 6.0, the compiler of Xcode 16.0, the oldest Xcode the
# package supports (`swift-tools-version:6.0`). Every compiler here is newer, so nothing else
# would see such syntax before a developer on Xcode 16.0-16.2 does.
#
#   Scripts/check-swift60.sh               Package.swift and every Swift file of Sources, Tests,
#                                          Examples, Benchmarks and Fuzz
#   Scripts/check-swift60.sh FILE...       those files
#   Scripts/check-swift60.sh --self-test   plants each construct in a scratch file and sees it
#                                          reported, and sees a file of look-alikes that Swift 6.0
#                                          accepts reported clean (and type-check)
#
# Scripts/check-swift60/check.py reads the files (python3): comments and string literals masked,
# interpolations read as code, and searched for:
#   Swift 6.1  `nonisolated` on a type or extension (SE-0449); a trailing comma anywhere but an
#              array or dictionary literal: tuples, parameter, argument, attribute and generic
#              lists, subscripts, capture lists, interpolations (SE-0439); `withTaskGroup` and
#              `withThrowingTaskGroup` without `of:` (SE-0442)
#   Swift 6.2  `@concurrent`, `nonisolated(nonsending)` (SE-0461); an isolated conformance,
#              `: @MainActor P` (SE-0470), and `@unsafe`/`@safe`/`@abi` (SE-0458, SE-0476);
#              `[N of T]` (SE-0483); raw identifiers, `` `a name` `` (SE-0451); `weak let`
#              (SE-0481); `isolated deinit` (SE-0371); integer generic parameters, `<let N: Int>`
#              (SE-0452); `~Escapable` (SE-0446)
# Why patterns and not the compiler: no flag of this toolchain's `swift-frontend` makes it parse
# as 6.0 did (`-swift-version`/`-language-mode` 5 and 6 both take the newer syntax; the
# `-print-supported-features` list holds only upcoming and experimental features, and these are
# neither).
#
# What it cannot see: newer syntax not listed above, a newer type checker's inference, and
# standard-library API newer than Swift 6.0's (Scripts/check-apple.sh checks API availability by
# OS, not by compiler). apple.yml's Xcode 16.0 job compiles everything with Swift 6.0 itself.
set -euo pipefail
cd "$(dirname "$0")/.."
checker=Scripts/check-swift60/check.py
# Findings known and owned elsewhere, each as FILE: MESSAGE; an entry that matches nothing fails,
# so that the list stays as short as the truth.
known=Scripts/check-swift60/known-findings.txt

if [ "${1-}" != --self-test ]; then
    files=("$@")
    if [ $# -eq 0 ]; then
        files=(Package.swift)
        while IFS= read -r -d '' file; do
            files+=("$file")
        done < <(find Sources Tests Examples Benchmarks Fuzz -name '*.swift' -print0 2>/dev/null | sort -z)
    fi
    report=$(python3 "$checker" "${files[@]}") || true
    # Each finding as FILE: MESSAGE (no line or column), to match the list of known ones.
    placeless=$(sed -E 's/^([^:]+):[0-9]+:[0-9]+: error: /\1: /' <<<"$report" | sort -u)
    known_entries=$(grep -v -E '^[[:space:]]*(#|$)' "$known" || true)
    unexpected=$(grep -v -F -x -f <(echo "$known_entries") <<<"$placeless" | grep . || true)
    stale=$(grep -v -F -x -f <(echo "$placeless") <<<"$known_entries" | grep . || true)
    if [ -z "$placeless" ] && [ -n "$known_entries" ]; then stale=$known_entries; fi
    if [ -n "$report" ]; then echo "$report"; fi
    if [ -n "$unexpected" ]; then
        echo "error: Swift syntax newer than 6.0 (Xcode 16.0, the oldest Xcode supported), not in $known:" >&2
        echo "  ${unexpected//$'\n'/$'\n'  }" >&2
        exit 1
    fi
    if [ -n "$stale" ]; then
        echo "error: entries of $known that matched nothing (remove them):" >&2
        echo "  ${stale//$'\n'/$'\n'  }" >&2
        exit 1
    fi
    echo "Swift 6.0 syntax check: ${#files[@]} files, nothing newer than Swift 6.0" \
        "but $(grep -c . <<<"$known_entries" || true) known finding(s) listed in $known"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each plant: one line of a scratch file that Swift 6.0 rejects, and the words its report names.
# shellcheck disable=SC2016 # backticks and \( are Swift here, not the shell's
plants=(
    'nonisolated final class Plant {}|nonisolated'
    'public nonisolated struct Plant {}|nonisolated'
    'nonisolated extension Plant {}|nonisolated'
    'func plant(a: Int, b: Int,) {}|trailing comma'
    'let plant = (1, 2,)|trailing comma'
    'let plant = f(1, 2,)|trailing comma'
    'struct Plant<A, B,> {}|trailing comma'
    'let plant: Dictionary<String, Int,> = [:]|trailing comma'
    'let plant = { [a, b,] in a }|trailing comma'
    'let plant = matrix[1, 2,]|trailing comma'
    'let plant = "\(1, 2,)"|trailing comma'
    '@available(iOS 17, *,) func plant() {}|trailing comma'
    'enum Plant { case a(Int, String,) }|trailing comma'
    '@concurrent func plant() async {}|@concurrent'
    'nonisolated(nonsending) func plant() async {}|nonsending'
    'extension Plant: @MainActor Equatable {}|isolated conformances'
    'struct Plant: Hashable, @MainActor P {}|isolated conformances'
    'let plant: [4 of Int] = [1, 2, 3, 4]|InlineArray'
    'func `plant one`() {}|raw identifier'
    'final class Plant { weak let owner: AnyObject? }|weak let'
    'actor Plant { isolated deinit {} }|isolated deinit'
    'struct Plant<let count: Int> {}|integer generic'
    'struct Plant<T, let count: Int> {}|integer generic'
    'struct Plant: ~Escapable {}|Escapable'
    'let plant = await withTaskGroup { group in 1 }|withTaskGroup'
    'extension Plant: @unsafe Sendable {}|@unsafe'
)
failed=0
for plant in "${plants[@]}"; do
    line=${plant%|*}
    words=${plant##*|}
    printf '// A plant.\n%s\n' "$line" >"$work/Plant.swift"
    if report=$(python3 "$checker" "$work/Plant.swift"); then
        echo "error: not reported: $line" >&2
        failed=1
    elif ! grep -q -F -- "$words" <<<"$report" || ! grep -q -F "Plant.swift:2:" <<<"$report"; then
        echo "error: reported, but not as '$words' on its line: $line" >&2
        echo "$report" >&2
        failed=1
    fi
done

# Look-alikes Swift 6.0 accepts: none may be reported, and the file type-checks.
cat >"$work/Clean.swift" <<'SWIFT'
// nonisolated final class InAComment {}  f(1, 2,)  weak let  [4 of Int]  `a name`
/* nonisolated struct /* nested */ Neither {} @concurrent */
protocol P {}
struct Box<T> { var items: [T] }
final class Owner: @unchecked Sendable {
    nonisolated(unsafe) static var shared = 0
    weak var other: Owner?
    nonisolated func work() {}
    class func make() -> Owner { Owner() }
}
extension Box: P where T: P {}
struct Sample: @unchecked Sendable, P {}
@MainActor final class Screen { let handler: @MainActor () -> Void = {} }
func call(_ a: Int, _ b: Int) -> Int { a + b }
let list = [1, 2, 3,]
let table = ["a": 1, "b": 2,]
let nested = [[1, 2,], [3,],]
let text = "nonisolated struct S {} (1, 2,) \(call(1, 2)) `a name` [4 of Int]"
let raw = #"weak let, "quoted" \(1, 2,) "#
let block = """
    f(a, b,) isolated deinit
    \(call(3, 4))
    """
let `default` = 1
let closure: @Sendable () -> Int = { [list] in list.count }
func generic<A, B>(_ a: A, _ b: B) -> (A, B) { (a, b) }
func groups() async -> Int { await withTaskGroup(of: Int.self) { _ in 0 } }
SWIFT
if report=$(python3 "$checker" "$work/Clean.swift"); then :; else
    echo "error: look-alikes Swift 6.0 accepts were reported:" >&2
    echo "$report" >&2
    failed=1
fi
if ! swiftc -typecheck -swift-version 6 -parse-as-library "$work/Clean.swift" >"$work/clean.log" 2>&1; then
    cat "$work/clean.log" >&2
    echo "error: the self-test's look-alikes are not valid Swift" >&2
    failed=1
fi
if [ $failed != 0 ]; then
    exit 1
fi
echo "Swift 6.0 syntax check self-test: ${#plants[@]} plants reported, the look-alikes clean"
