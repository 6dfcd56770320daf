#!/usr/bin/env bash
# Checks what the manifest shows a client's package graph, where every target of every package
# shares one namespace and Xcode lists a dependency's declared products in an app target's sheet:
#   - the declared products are the three libraries and statectl (no mailhost: a terminal
#     program for this repository, which `swift run mailhost` runs without a product);
#   - every target but the test targets is named `StateStore…` or `statestore-…`, or is one of
#     the commands README.md runs by name (statectl, mailhost, statebench).
#
#   Scripts/check-manifest.sh               Package.swift, read with `swift package dump-package`
#   Scripts/check-manifest.sh --self-test   a planted `TestSupport` target and `mailhost`
#                                           product, each seen to fail
set -euo pipefail
cd "$(dirname "$0")/.."

products='["StateStore","StateStoreHost","StateStoreSwiftUI","statectl"]'
commands='["statectl","mailhost","statebench"]'

# Reads a dump-package JSON on stdin; prints each finding.
findings() {
    jq -r --argjson products "$products" --argjson commands "$commands" '
        ([.products[].name] | sort) as $declared
        | (if $declared != ($products | sort) then
              "declared products \($declared | join(", ")), not \($products | sort | join(", "))" else empty end),
          (.targets[] | select(.type != "test") | .name
              | select(. as $name | (startswith("StateStore") or startswith("statestore-") or ($commands | index($name) != null)) | not)
              | "target \(.) has no StateStore prefix: it can clash with a client'"'"'s target of that name")'
}

manifest=$(swift package dump-package)
if [ "${1-}" = --self-test ]; then
    planted=$(jq '.targets += [{"name": "TestSupport", "type": "regular"}]' <<<"$manifest")
    if ! findings <<<"$planted" | grep -q 'target TestSupport has no StateStore prefix'; then
        echo "error: a target named TestSupport was not reported" >&2
        exit 1
    fi
    planted=$(jq '.products += [{"name": "mailhost", "type": {"executable": null}}]' <<<"$manifest")
    if ! findings <<<"$planted" | grep -q 'declared products.*mailhost'; then
        echo "error: a declared mailhost product was not reported" >&2
        exit 1
    fi
    echo "Manifest check self-test: a TestSupport target and a mailhost product are reported"
    exit 0
fi
found=$(findings <<<"$manifest")
if [ -n "$found" ]; then
    echo "error: Package.swift: ${found//$'\n'/$'\n'error: Package.swift: }" >&2
    exit 1
fi
echo "Manifest check: products $(jq -r '[.products[].name] | join(", ")' <<<"$manifest"); every target prefixed"
