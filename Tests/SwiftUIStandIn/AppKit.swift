// The stand-in `AppKit` module: empty. The adapter uses nothing of AppKit; it asks
// `canImport(AppKit)` (without UIKit) to tell macOS, and Scripts/check-swiftui.sh type-checks that
// configuration with this module present.
