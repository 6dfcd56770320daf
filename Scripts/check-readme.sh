#!/usr/bin/env bash
# Runs the README's statectl lines as a reader would, and checks what the README says statectl
# prints and exits with.
#
#   Scripts/check-readme.sh              every `statectl` line of README.md's ```sh blocks and every
#                                        `$ statectl` command of its ```console blocks, in order, in a
#                                        scratch folder: the first must be `statectl demo …`, so the
#                                        rest run on the store the demo leaves; a line fails on a
#                                        non-zero exit or when it does not end within a minute (a
#                                        line must not need a running app); a console block fails
#                                        when what its command prints differs from what is shown,
#                                        timestamps aside. And the exit-status list between README's
#                                        `<!-- statectl exit statuses -->` markers must be the one
#                                        `statectl help` prints, made from the same table.
#   Scripts/check-readme.sh --write      puts help's exit statuses and each console command's real
#                                        output into README.md (then read the diff)
#   Scripts/check-readme.sh --self-test  a failing line, a changed output and a changed exit
#                                        status, each planted in a scratch copy, each seen to fail
#
# The statectl run is the debug build (`swift build` makes it), or $STATECTL_BIN. Needs python3
# and bash; no network.
set -euo pipefail
cd "$(dirname "$0")/.."

statectl=${STATECTL_BIN:-$(swift build --show-bin-path)/statectl}
if [ ! -x "$statectl" ]; then
    swift build --product statectl >/dev/null
fi
checker=Scripts/check-readme/readme_statectl.py

if [ "${1-}" = --self-test ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    expect_failure() { # NAME PATTERN FILE
        if python3 "$checker" --statectl "$statectl" "$3" >"$work/out" 2>&1; then
            cat "$work/out" >&2
            echo "error: self-test: $1 passed the check" >&2
            exit 1
        fi
        if ! grep -q -- "$2" "$work/out"; then
            cat "$work/out" >&2
            echo "error: self-test: $1 failed, but not for what was planted" >&2
            exit 1
        fi
    }
    # A line that exits non-zero: a window the demo does not make.
    python3 - README.md "$work/line.md" <<'PY'
import sys
text = open(sys.argv[1]).read()
marker = "\nstatectl list"
assert marker in text, "README.md has no line `statectl list`"
open(sys.argv[2], "w").write(text.replace(marker, "\nstatectl show demo nosuchwindow\nstatectl list", 1))
PY
    expect_failure "a line that exits 66" "nosuchwindow\` exited 66" "$work/line.md"
    # An output that is not what statectl prints.
    python3 - README.md "$work/output.md" <<'PY'
import sys
text = open(sys.argv[1]).read()
start = text.index("```console")
line = text.index("\n", text.index("\n$ statectl", start) + 1)
open(sys.argv[2], "w").write(text[:line + 1] + "a line statectl does not print\n" + text[line + 1:])
PY
    expect_failure "a changed output" "a line statectl does not print" "$work/output.md"
    # An exit status that is not help's.
    python3 - README.md "$work/status.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
planted = re.sub(r"70 a bug in\s+statectl,\s+", "", text, count=1)
assert planted != text, "README.md does not list status 70 as statectl help does"
open(sys.argv[2], "w").write(planted)
PY
    expect_failure "a missing exit status" "the exit statuses differ" "$work/status.md"
    echo "README check self-test: a failing line, a changed output and a missing exit status each fail"
    exit 0
fi

python3 "$checker" --statectl "$statectl" ${1:+"$1"} README.md
