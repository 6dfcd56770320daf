#!/usr/bin/env bash
# The docs tell what the repository holds: its figures are the latest measured, its lists current.
#
#   Scripts/check-docs.sh                  checks, without building or measuring anything:
#                                          - every figure a doc quotes (README.md, Documentation/,
#                                            Examples/, the DocC catalogs) is written as a token,
#                                            <!--fig KEY-->TEXT<!--/fig-->, and TEXT is what
#                                            Benchmarks/figures.json (statebench's latest full run)
#                                            or Scripts/count-glue.sh gives KEY now; a ratio, a time
#                                            in µs, a rate or a fractional time in ms outside a token
#                                            fails (Benchmarks/README.md's dated investigations and
#                                            CHANGELOG.md, which is history, are not read for them),
#                                            and so does a token that begins a line (Markdown reads
#                                            the line as HTML, and DocC leaves it out);
#                                          - the parts made from the repository are current: the list
#                                            of DocC articles in Documentation/Development.md (from
#                                            the catalogs) and the tables of the latest run in
#                                            Benchmarks/README.md (from figures.json);
#                                          - the scripts .ci/run runs are those Development.md's
#                                            "What CI runs" lists;
#                                          - nothing cites what the repository does not hold (the
#                                            contract's file or sections, issue numbers, "the seed"):
#                                            neither the docs and sources above nor the manifest,
#                                            .ci/, .github/, Scripts/ (this script and its checker
#                                            aside), Benchmarks/, Fuzz/ and Tests/.
#   Scripts/check-docs.sh --write          rewrites every token and generated part from the sources
#   Scripts/check-docs.sh --record RUN     makes Benchmarks/figures.json from RUN, the output of
#                                          `swift run -c release statebench --json`, then --write
#   Scripts/check-docs.sh --list           every figure's key and text
#   Scripts/check-docs.sh --self-test      faults planted in a scratch copy, each seen to fail
#
# Needs python3 and bash; no network, no build. Under a second.
set -euo pipefail
cd "$(dirname "$0")/.."
checker=$PWD/Scripts/check-docs/docs.py

if [ "${1-}" != --self-test ]; then
    exec python3 "$checker" . "$@"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A scratch copy of the work tree: what is tracked and what is new but not ignored (links kept).
copy() { # FOLDER
    mkdir -p "$1"
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        [ -e "$file" ] || [ -L "$file" ] && printf '%s\0' "$file"
    done | tar --null -T - -cf - | tar -xf - -C "$1"
}
copy "$work/clean"
if ! python3 "$checker" "$work/clean" >"$work/out" 2>&1; then
    cat "$work/out" >&2
    echo "error: self-test: the unchanged copy fails the check" >&2
    exit 1
fi

# NAME EXPECTED PYTHON: plants a fault in a fresh copy with PYTHON (run in it), then expects the
# check to fail with a line containing EXPECTED.
plant() {
    rm -rf "$work/tree"
    cp -a "$work/clean" "$work/tree"
    (cd "$work/tree" && python3 -c "$3")
    if python3 "$checker" "$work/tree" >"$work/out" 2>&1; then
        cat "$work/out" >&2
        echo "error: self-test: $1 passed the check" >&2
        exit 1
    fi
    if ! grep -q -F -- "$2" "$work/out"; then
        cat "$work/out" >&2
        echo "error: self-test: $1 failed, but not for what was planted ($2)" >&2
        exit 1
    fi
}
edit='
def edit(path, old, new):
    text = open(path, encoding="utf-8").read()
    assert old in text, (path, old)
    open(path, "w", encoding="utf-8").write(text.replace(old, new, 1))
'

plant "a stale figure in README.md" "push-on-the-main-actor-median is" "$edit
import re
text = open('README.md', encoding='utf-8').read()
match = re.search(r'<!--fig push-on-the-main-actor-median-->(.*?)<!--/fig-->', text)
assert match, 'README.md quotes no push-on-the-main-actor-median'
edit('README.md', match.group(0), '<!--fig push-on-the-main-actor-median-->15.9 µs<!--/fig-->')"

plant "a new run recorded, the docs not rewritten" "launch-windowsession-4-windowmodels.ratio is" "
import json
record = json.load(open('Benchmarks/figures.json', encoding='utf-8'))
for figure in record['report']['figures']:
    if figure['operation'] == 'launch, WindowSession + 4 WindowModels':
        figure['subjectOverRaw'] = 5.1
json.dump(record, open('Benchmarks/figures.json', 'w', encoding='utf-8'))"

plant "a figure written without a token" "'1,288 µs', a figure not from" "$edit
edit('Sources/StateStoreHost/StateStoreHost.docc/GettingStarted.md', '### Add the package',
     'Launching took 1,288 µs.\n\n### Add the package')"

plant "a token at the start of a line" "a token begins the line" "$edit
edit('Sources/StateStoreHost/StateStoreHost.docc/GettingStarted.md', '### Add the package',
     'A push takes\n<!--fig push-on-the-main-actor-median-->1 µs<!--/fig--> at most.\n\n### Add the package')"

plant "a token of no figure" "no figure 'launch-in-a-flash'" "$edit
edit('README.md', '## Performance\n', '## Performance\n\n<!--fig launch-in-a-flash-->1 µs<!--/fig-->\n')"

plant "a DocC article the list leaves out" "the docc articles are not what" "
open('Sources/StateStore/StateStore.docc/ANewArticle.md', 'w').write('# A new article\n\nText.\n')"

plant "a citation of the contract" "'SPEC' cites what the repository does not hold" "$edit
edit('Documentation/statectl.md', '\n\n', '\n\nAs SPEC §5 says.\n\n')"

# A test's comment is read too, and "The seed" at the start of a sentence is a citation like "the seed".
test_file=Tests/StateStoreTests/Rule/RuleTests.swift
test_line=$(grep -n -m 1 '^struct RuleTests {' "$work/clean/$test_file" | cut -d: -f1)
plant "a citation in a test" "$test_file:$test_line: 'The seed' cites what the repository does not hold" "$edit
edit('$test_file', '\nstruct RuleTests {', '\n// The seed did the same.\nstruct RuleTests {')"

plant "a script CI runs that the table leaves out" "runs Scripts/check-everything.sh, which" "$edit
edit('.ci/run', 'echo \"== the README', 'Scripts/check-everything.sh\necho \"== the README')"

# --write repairs a stale figure.
rm -rf "$work/tree"
cp -a "$work/clean" "$work/tree"
(cd "$work/tree" && python3 -c "$edit
import re
text = open('README.md', encoding='utf-8').read()
match = re.search(r'<!--fig push-on-the-main-actor-median-->(.*?)<!--/fig-->', text)
edit('README.md', match.group(0), '<!--fig push-on-the-main-actor-median-->15.9 µs<!--/fig-->')")
python3 "$checker" "$work/tree" --write >/dev/null 2>&1 || true
if ! python3 "$checker" "$work/tree" >"$work/out" 2>&1 || ! cmp -s "$work/tree/README.md" "$work/clean/README.md"; then
    cat "$work/out" >&2
    echo "error: self-test: --write did not put the current figure back" >&2
    exit 1
fi
echo "Docs check self-test: a stale figure, a run recorded but not written, a figure without a token, a token starting a line, an unknown key," \
    "an unlisted DocC article, a citation in a doc and one in a test, and an unlisted CI script each fail; --write repairs a stale figure"
