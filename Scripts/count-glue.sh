#!/usr/bin/env bash
# Counts the sample apps' lines by what they are: each Swift file of Examples/MailApp and
# Examples/RecipeBrowser is cut into regions by `// MARK: - KIND` comments, KIND one of
#   app      what the app is: its routes, views, links and sample data
#   wiring   the package put to work: its scenes, windows, split view, tabs, bindings, one call
#   glue     code any app would write again to make the package work: the package's to remove
# optionally followed by `: NAME` (`// MARK: - wiring: split-view window`). Code lines are
# counted (not blank lines, comments, or `#if`/`#endif`/`import` lines, which any Swift file has).
#
#   Scripts/count-glue.sh           the counts, per sample; fails if there is glue, a line outside
#                                   a region, or a window view with more than 30 lines of wiring
set -euo pipefail
cd "$(dirname "$0")/.."

limit=30
status=0
count_sample() { # FOLDER
declare -A totals=([app]=0 [wiring]=0 [glue]=0)
while IFS= read -r file; do
    kind=""
    name=""
    declare -A counts=()
    while IFS= read -r line; do
        if [[ $line =~ ^[[:space:]]*//\ MARK:\ -\ (app|wiring|glue)(:\ (.*))?$ ]]; then
            kind=${BASH_REMATCH[1]}
            name=${BASH_REMATCH[3]:-}
            continue
        fi
        trimmed=${line#"${line%%[![:space:]]*}"}
        case $trimmed in
            "" | //* | "#if"* | "#endif"* | "#else"* | "import "*) continue ;;
        esac
        if [ -z "$kind" ]; then
            echo "error: $file: a line outside a marked region: $trimmed" >&2
            status=1
            continue
        fi
        key="$kind${name:+|$name}"
        counts[$key]=$((${counts[$key]:-0} + 1))
        totals[$kind]=$((${totals[$kind]} + 1))
    done <"$file"
    for key in "${!counts[@]}"; do
        printf '%-40s %-8s %4d  %s\n' "$file" "${key%%|*}" "${counts[$key]}" "$([[ $key == *"|"* ]] && echo "${key#*|}")"
        if [[ $key == wiring\|*window* ]] && [ "${counts[$key]}" -gt "$limit" ]; then
            echo "error: $file: '${key#*|}' takes ${counts[$key]} lines of wiring (at most $limit)" >&2
            status=1
        fi
    done
    unset counts
done < <(find "$1" -name '*.swift' | sort)
echo "$1: app ${totals[app]}, wiring ${totals[wiring]}, glue ${totals[glue]} lines"
if [ "${totals[glue]}" -gt 0 ]; then
    echo "error: $1 writes ${totals[glue]} lines of glue: the package should do it" >&2
    status=1
fi
}

count_sample Examples/MailApp
count_sample Examples/RecipeBrowser
exit "$status"
