#!/usr/bin/env bash
# The sample apps' Xcode projects, checked where no Xcode runs: Examples/MailApp/MailApp.xcodeproj
# and Examples/RecipeBrowser/RecipeBrowser.xcodeproj (Scripts/check-xcodeproj/sample_projects.py's
# SAMPLES says each one's targets, folders, products and files).
#
#   Scripts/check-xcodeproj.sh              each committed project.pbxproj (and its workspace) must
#                                           be what the sample's files make (each target compiles
#                                           the Swift files of its folders: MailApp those at the top
#                                           of Examples/MailApp and in Shared/, its share extension
#                                           those in ShareExtension/ and Shared/, RecipeBrowser those
#                                           at the top of Examples/RecipeBrowser), and, read back as
#                                           Xcode reads it (an OpenStep property list), hold
#                                           together: every object it refers to exists; the targets
#                                           the sample has, of their kinds (an app; MailApp's
#                                           MailShare an app extension, built first and embedded),
#                                           and no other; each target's Swift files exactly those
#                                           Scripts/check-swiftui.sh type-checks; one package
#                                           reference, ../.., the repository's root, whose products
#                                           each target links (declared in Package.swift, and every
#                                           one its Swift files import); the Info.plists and
#                                           entitlements the targets name exist; the URL scheme the
#                                           app's code reads (MailLink.swift, Recipes.swift) is
#                                           registered and several scenes allowed; where the code
#                                           names an App Group (MailApp's Shared/MailRoute.swift),
#                                           every target's entitlements hold it (MailApp.xcconfig's
#                                           APP_GROUP); an extension's bundle id lies inside its
#                                           app's.
#   Scripts/check-xcodeproj.sh --write      writes the projects from the files (after adding, removing
#                                           or renaming a Swift file of a sample)
#   Scripts/check-xcodeproj.sh --self-test  planted faults, for each sample, each seen to fail
#
# What it cannot see: whether Xcode opens, builds, signs or runs them (each sample's README.md).
set -euo pipefail
case "${1-}" in
    "" | --write | --self-test) ;;
    *)
        echo "usage: Scripts/check-xcodeproj.sh [--write | --self-test]" >&2
        exit 64
        ;;
esac
cd "$(dirname "$0")/.."
python3 Scripts/check-xcodeproj/sample_projects.py ${1:+"$1"} .
