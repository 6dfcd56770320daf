#!/usr/bin/env bash
# Makes sure the selected Xcode can build for a simulator platform on a hosted macOS runner
# (.github/workflows/apple.yml): since Xcode 15 a simulator platform's runtime is a separate
# download, and a build for `generic/platform=visionOS Simulator` fails without it. Downloads the
# platform with `xcodebuild -downloadPlatform` when `xcrun simctl` lists no runtime of it.
#
#   Scripts/ensure-platform.sh iOS|watchOS|tvOS|visionOS
#   Scripts/ensure-platform.sh macOS      nothing to download (Mac and Mac Catalyst builds)
set -euo pipefail

platform=${1-}
case $platform in
    macOS) exit 0 ;;
    iOS | watchOS | tvOS | visionOS) ;;
    *)
        echo "usage: Scripts/ensure-platform.sh iOS|watchOS|tvOS|visionOS|macOS" >&2
        exit 64
        ;;
esac
# Runtimes appear as "iOS 18.0 (18.0 - 22A3351) - com.apple.CoreSimulator.SimRuntime.iOS-18-0".
if xcrun simctl list runtimes available | grep -q -E "^$platform [0-9]"; then
    echo "$platform simulator runtime: installed"
    xcrun simctl list runtimes available | grep -E "^$platform [0-9]"
    exit 0
fi
echo "$platform simulator runtime: missing; xcodebuild -downloadPlatform $platform"
xcodebuild -downloadPlatform "$platform"
xcrun simctl list runtimes available | grep -E "^$platform [0-9]"
