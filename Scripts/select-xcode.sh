#!/usr/bin/env bash
# Selects an Xcode on a hosted macOS runner (.github/workflows/apple.yml), with xcode-select.
#
#   Scripts/select-xcode.sh oldest   Xcode 16.0 (Swift 6.0), the oldest the package supports
#                                    (`swift-tools-version:6.0`): fails if the runner lacks it
#   Scripts/select-xcode.sh newest   the newest released Xcode on the runner (no beta, no
#                                    release candidate: /Applications/Xcode_N.N.app)
#
# Prints the Xcode and Swift versions it selected.
set -euo pipefail

oldest=16.0
case "${1-}" in
    oldest)
        xcode=/Applications/Xcode_$oldest.app
        if [ ! -d "$xcode" ]; then
            echo "::error::Xcode $oldest, the oldest Xcode the package supports, is not on this runner image"
            ls -d /Applications/Xcode*.app >&2 || true
            exit 1
        fi
        ;;
    newest)
        xcode=$(find /Applications -maxdepth 1 -name 'Xcode_*.app' | { grep -E '/Xcode_[0-9.]+\.app$' || true; } |
            sort -V | tail -n 1)
        if [ -z "$xcode" ]; then
            echo "::error::no released Xcode in /Applications"
            exit 1
        fi
        ;;
    *)
        echo "usage: Scripts/select-xcode.sh oldest|newest" >&2
        exit 64
        ;;
esac
sudo xcode-select -s "$xcode/Contents/Developer"
xcodebuild -version
swift --version
