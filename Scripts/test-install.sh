#!/usr/bin/env bash
# Tests Scripts/install.sh into temporary prefixes, as a user installs: the release build, the
# installed binary run, the manual page rendered by man, the completions loaded by each shell
# from its standard place, a second install over the first, a file in the way, and
# --uninstall leaving each prefix exactly as it was, files and folders that were there before
# included. Needs man, and bash, zsh and fish for their completions (a shell that is missing
# is reported and skipped). Prints each check, then 'N passed, N failed'; exits 1 on a failure.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
check() { # DESCRIPTION COMMAND...: runs the command, counts it
    local description=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok: $description"
    else
        failed=$((failed + 1))
        echo "FAILED: $description"
    fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/statectl-test-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp" "$work/home"
export HOME=$work/home TMPDIR=$work/tmp
unset STATECTL_DB XDG_STATE_HOME

# Every path under a prefix with its type, mode and content: equal exactly when nothing was
# added, removed or changed.
snapshot() {
    (cd "$1" && find . -print0 | sort -z | while IFS= read -r -d '' path; do
        if [ -f "$path" ]; then
            printf '%s file %s %s\n' "$path" "$(stat -c %a "$path")" "$(sha256sum <"$path" | cut -d' ' -f1)"
        else
            printf '%s %s %s\n' "$path" "$(stat -c %F "$path")" "$(stat -c %a "$path")"
        fi
    done)
}

# A prefix in use: another tool's binary and manual page, an empty folder of zsh's, and the
# share folder.
prefix=$work/prefix
mkdir -p "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/zsh/vendor-completions"
echo '#!/bin/sh' >"$prefix/bin/other-tool"
chmod 755 "$prefix/bin/other-tool"
printf '.TH OTHER 1\n.SH NAME\nother \\- another tool\n' >"$prefix/share/man/man1/other.1"
before=$(snapshot "$prefix")

echo "== install into $prefix"
check "the install succeeds" Scripts/install.sh "$prefix"
for path in bin/statectl share/bash-completion/completions/statectl share/zsh/site-functions/_statectl \
    share/fish/vendor_completions.d/statectl.fish share/man/man1/statectl.1 share/statectl/install-manifest; do
    check "it installed $path" test -f "$prefix/$path"
done
check "the binary is executable" test -x "$prefix/bin/statectl"
check "the installed binary runs" grep -q '^statectl [0-9]' <("$prefix/bin/statectl" --version)
# On Linux it carries the Swift and C++ runtimes (Package.swift, Linker/libstdc++.so): it needs no
# Swift installed, and its start relocates no libstdc++.so.
own_runtimes() { ! ldd "$prefix/bin/statectl" | grep -E 'libswift|libdispatch|libFoundation|libstdc\+\+'; }
if [ "$(uname -s)" = Linux ]; then check "it needs no Swift or C++ runtime installed" own_runtimes; fi
runs_demo() { "$prefix/bin/statectl" demo >"$work/demo.txt" && grep -q 'demo' "$work/demo.txt"; }
check "the installed binary runs the demo" runs_demo
check "the files it left alone are as they were" grep -qxF '#!/bin/sh' "$prefix/bin/other-tool"

echo "== the manual page"
man_renders() {
    local errors
    errors=$(MANWIDTH=80 man -l "$prefix/share/man/man1/statectl.1" 2>&1 >"$work/man.txt") &&
        [ -z "$errors" ] && grep -q '^EXIT STATUS' "$work/man.txt"
}
man_finds_it() {
    MANWIDTH=80 man -M "$prefix/share/man" statectl 2>/dev/null | grep -q '^STATECTL(1)'
}
if command -v man >/dev/null; then
    check "man -l renders it without a warning" man_renders
    check "man finds it in the prefix's share/man" man_finds_it
else
    echo "skipped: man is not installed (.ci/run installs man-db)"
fi

echo "== the completions, from each shell's standard place"
export PATH=$prefix/bin:$PATH
bash_loads() {
    [ "$(bash --norc --noprofile -c \
        "source '$prefix/share/bash-completion/completions/statectl' && complete -p statectl")" = \
        'complete -F _statectl statectl' ]
}
zsh_loads() {
    [ "$(zsh -f -c "fpath=('$prefix/share/zsh/site-functions' \$fpath); autoload -Uz compinit; compinit -u -D;
        print -r -- \$_comps[statectl]")" = _statectl ]
}
fish_loads() {
    fish --no-config -c "set fish_complete_path '$prefix/share/fish/vendor_completions.d' \$fish_complete_path;
        complete -C 'statectl complet'" | grep -q '^completion'
}
check "bash loads it" bash_loads
for shell in zsh fish; do
    if command -v $shell >/dev/null; then
        check "$shell loads it" ${shell}_loads
    else
        echo "skipped: $shell is not installed (.ci/run installs it)"
    fi
done

echo "== a second install over the first"
first=$(snapshot "$prefix")
check "installing again succeeds" Scripts/install.sh "$prefix"
check "and changes nothing" [ "$(snapshot "$prefix")" = "$first" ]

echo "== a file in the way"
blocked=$work/blocked
mkdir -p "$blocked/bin"
echo 'someone else' >"$blocked/bin/statectl"
blocked_before=$(snapshot "$blocked")
Scripts/install.sh "$blocked" >/dev/null 2>"$work/blocked.err"
status=$?
check "an install over a file it did not make exits 73" [ $status = 73 ]
check "and says which file" grep -q "$blocked/bin/statectl exists" "$work/blocked.err"
check "and writes nothing" [ "$(snapshot "$blocked")" = "$blocked_before" ]

echo "== uninstall"
check "the uninstall succeeds" Scripts/install.sh --uninstall "$prefix"
check "the prefix is as it was before the install" [ "$(snapshot "$prefix")" = "$before" ]
Scripts/install.sh --uninstall "$prefix" >/dev/null 2>&1
status=$?
check "a second uninstall finds nothing to remove (66)" [ $status = 66 ]
check "and changes nothing" [ "$(snapshot "$prefix")" = "$before" ]

echo "== a prefix that did not exist"
fresh=$work/fresh
check "an install into a new prefix succeeds" Scripts/install.sh "$fresh"
check "its binary runs" grep -q '^statectl [0-9]' <("$fresh/bin/statectl" --version)
check "its uninstall succeeds" Scripts/install.sh --uninstall "$fresh"
check "and removes the prefix it made" [ ! -e "$fresh" ]
Scripts/install.sh "$work/missing/prefix" >/dev/null 2>"$work/missing.err"
status=$?
check "a prefix in a folder that does not exist is refused (73)" [ $status = 73 ]
check "and nothing is made" [ ! -e "$work/missing" ]

echo "== a manifest naming a path outside the prefix"
tampered=$work/tampered
mkdir -p "$tampered/share/statectl"
echo keep >"$work/outside"
printf 'file ../outside\n' >"$tampered/share/statectl/install-manifest"
Scripts/install.sh --uninstall "$tampered" >/dev/null 2>&1
status=$?
check "is refused (65)" [ $status = 65 ]
check "and removes nothing" grep -qx keep "$work/outside"
check "not even the manifest" test -f "$tampered/share/statectl/install-manifest"

echo "== the command line"
Scripts/install.sh --bogus >/dev/null 2>&1
status=$?
check "an unknown option is a usage error (64)" [ $status = 64 ]
Scripts/install.sh "$work/a" "$work/b" >/dev/null 2>&1
status=$?
check "two prefixes are a usage error (64)" [ $status = 64 ]
check "and nothing was made" [ ! -e "$work/a" -a ! -e "$work/b" ]
check "--help describes it" grep -q -- '--uninstall' <(Scripts/install.sh --help)

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
