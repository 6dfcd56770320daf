// The stand-in `WatchKit` module: empty. The adapter uses nothing of WatchKit; it asks
// `canImport(WatchKit)` to tell watchOS (whose UIKit has no views, scenes or UIApplication: the
// UIKit stand-in marks them unavailable there), and
// Scripts/check-swiftui.sh type-checks that configuration with this module present.
