#!/usr/bin/env bash
# The sample app's Xcode project (Examples/MailApp/MailApp.xcodeproj), checked where no Xcode runs.
#
#   Scripts/check-xcodeproj.sh              the committed project.pbxproj must be what the sample's
#                                           files make (Swift files at the top of Examples/MailApp
#                                           are the app's, in ShareExtension/ the share extension's,
#                                           in Shared/ both targets'), and, read back as Xcode reads
#                                           it (an OpenStep property list), hold together: every
#                                           object it refers to exists; the targets MailApp (an app)
#                                           and MailShare (an app extension, built first and
#                                           embedded); each target's Swift files exactly those
#                                           Scripts/check-swiftui.sh type-checks; one package
#                                           reference, ../.., the repository's root, whose products
#                                           each target links (declared in Package.swift); the
#                                           Info.plists and entitlements the targets name exist; the
#                                           URL scheme MailLink.swift reads is registered and several
#                                           scenes allowed; both entitlements hold the App Group
#                                           Shared/MailRoute.swift names (MailApp.xcconfig's
#                                           APP_GROUP); the extension's bundle id lies inside the app's.
#   Scripts/check-xcodeproj.sh --write      writes the project from the files (after adding, removing
#                                           or renaming a Swift file of the sample)
#   Scripts/check-xcodeproj.sh --self-test  planted faults, each seen to fail
#
# What it cannot see: whether Xcode opens, builds, signs or runs it (Examples/MailApp/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Scripts/check-xcodeproj/sample_projects.py ${1:+"$1"} .
