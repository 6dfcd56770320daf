// The stand-in `FoundationApple` module: the Apple-only Foundation API `Sources/StateStoreHost` uses,
// declared as the Xcode 16.0 SDK declares it, each declaration citing the page of Apple's
// documentation it copies. swift-corelibs-foundation lacks these; Scripts/check-swiftui.sh imports
// this module implicitly (`-import-module`) into StateStoreHost's sources when it type-checks their
// Apple branches, so that they read as they do against Apple's Foundation. Built per platform with
// `-D STANDIN_IOS`, `-D STANDIN_MACOS` or `-D STANDIN_WATCHOS`: what a platform lacks is unavailable.

import Foundation

extension ProcessInfo {
    /// https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
    /// (iOS 8.2, iPadOS 8.2, Mac Catalyst 13.1, tvOS 9.0, visionOS 1.0, watchOS 2.0; not macOS. The
    /// block runs asynchronously, `expired` true when the system will not give, or takes back, the
    /// time.)
    @available(iOS 8.2, macCatalyst 13.1, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    #if STANDIN_MACOS
        @available(*, unavailable, message: "not in macOS's Foundation")
    #endif
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {}

    /// https://developer.apple.com/documentation/foundation/processinfo/disablesuddentermination()
    /// (macOS 10.6 and Mac Catalyst 13.1 only.)
    @available(macOS 10.6, macCatalyst 13.1, *)
    @available(iOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    #if !STANDIN_MACOS
        @available(*, unavailable, message: "macOS only")
    #endif
    public func disableSuddenTermination() {}

    /// https://developer.apple.com/documentation/foundation/processinfo/enablesuddentermination()
    /// (macOS 10.6 and Mac Catalyst 13.1 only.)
    @available(macOS 10.6, macCatalyst 13.1, *)
    @available(iOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    #if !STANDIN_MACOS
        @available(*, unavailable, message: "macOS only")
    #endif
    public func enableSuddenTermination() {}
}

extension FileManager {
    /// https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
    /// (iOS 7.0, iPadOS 7.0, Mac Catalyst 13.1, macOS 10.8, tvOS 9.0, visionOS 1.0, watchOS 2.0.)
    @available(iOS 7.0, macOS 10.8, macCatalyst 13.1, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { nil }
}
