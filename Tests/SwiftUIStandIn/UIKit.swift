// The stand-in `UIKit` module: the UIKit API `Sources/StateStoreSwiftUI` uses, declared as the
// Xcode 16.0 SDK (iOS 18.0) declares it (see README.md). Each declaration cites the page of Apple's
// documentation it copies. Bodies only satisfy the compiler. With it, every `#if canImport(UIKit)`
// branch of the adapter is type-checked (Scripts/check-swiftui.sh), in Swift 6 mode and with
// `-default-isolation MainActor`.
//
// UIKit's classes are Objective-C classes, so `NSObject` subclasses: a method named like one of
// NSObject's (`copy()`, `hash`, `description`) changes meaning or becomes ambiguous, here as on
// Apple platforms (swift-corelibs-foundation's NSObject declares `copy()` too).
//
// Per platform, as strict as the SDK: each declaration carries the availability its page gives
// (the `@available` lines; the `availability` of Apple's documentation, read for each). A Linux
// compiler enforces no platform's availability, so Scripts/check-swiftui.sh builds this module
// once per configuration with `-D STANDIN_IOS`, `-D STANDIN_WATCHOS` …, and what a platform lacks
// is also marked `@available(*, unavailable)` under its flag: watchOS's UIKit has no application,
// responder, scene or view (UIKit is not in macOS at all: the macOS configuration has no UIKit).

import Foundation

// MARK: - Foundation's Apple-only API the adapter uses

// Declared here because swift-corelibs-foundation lacks it; on Apple platforms it is Foundation's,
// which UIKit re-exports. (What StateStoreHost uses of Apple's Foundation is in FoundationApple.swift.)

extension NSObject {
    /// https://developer.apple.com/documentation/objectivec/nsobject/1416468-value (key-value coding;
    /// on Apple platforms NSObject's instance methods are also class methods of its subclasses,
    /// which reach a class's properties by key path: `UIApplication.value(forKeyPath:)`)
    public class func value(forKeyPath keyPath: String) -> Any? { nil }
}

// MARK: - The application and its scene sessions

/// https://developer.apple.com/documentation/uikit/uiresponder (iOS 2, iPadOS 2, Mac Catalyst 13.1,
/// tvOS 9, visionOS 1; not watchOS)
@available(iOS 2.0, macCatalyst 13.1, tvOS 9.0, visionOS 1.0, *)
@available(watchOS, unavailable)
#if STANDIN_WATCHOS
    @available(*, unavailable, message: "not in watchOS's UIKit")
#endif
@MainActor @preconcurrency open class UIResponder: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiapplication (iOS 2, iPadOS 2, Mac Catalyst 13.1,
/// tvOS, visionOS 1; not watchOS)
@available(iOS 2.0, macCatalyst 13.1, tvOS 9.0, visionOS 1.0, *)
@available(watchOS, unavailable)
#if STANDIN_WATCHOS
    @available(*, unavailable, message: "not in watchOS's UIKit")
#endif
@MainActor @preconcurrency open class UIApplication: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiapplication/shared (unavailable in app
    /// extensions: the adapter reaches it by key path, and only outside one)
    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    open class var shared: UIApplication { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/uikit/uiapplication/opensessions (iOS 13, iPadOS 13,
    /// Mac Catalyst 13.1, tvOS 13, visionOS 1)
    @available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
    open var openSessions: Set<UISceneSession> { [] }
}

/// https://developer.apple.com/documentation/uikit/uiscenesession (iOS 13, iPadOS 13, Mac Catalyst
/// 13.1, tvOS 13, visionOS 1; not watchOS)
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(watchOS, unavailable)
#if STANDIN_WATCHOS
    @available(*, unavailable, message: "not in watchOS's UIKit")
#endif
@MainActor @preconcurrency open class UISceneSession: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiscenesession/persistentidentifier
    open var persistentIdentifier: String { "" }

    /// https://developer.apple.com/documentation/uikit/uiscenesession/userinfo
    open var userInfo: [String: Any]?
}

/// https://developer.apple.com/documentation/uikit/uiscene (iOS 13, iPadOS 13, Mac Catalyst 13.1,
/// tvOS 13, visionOS 1; not watchOS)
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(watchOS, unavailable)
#if STANDIN_WATCHOS
    @available(*, unavailable, message: "not in watchOS's UIKit")
#endif
@MainActor @preconcurrency open class UIScene: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiscene/session
    open var session: UISceneSession { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/uikit/uiwindowscene (iOS 13, iPadOS 13, Mac Catalyst
/// 13.1, tvOS 13, visionOS 1; not watchOS)
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(watchOS, unavailable)
#if STANDIN_WATCHOS
    @available(*, unavailable, message: "not in watchOS's UIKit")
#endif
@MainActor @preconcurrency open class UIWindowScene: UIScene {}

// MARK: - Views

/// https://developer.apple.com/documentation/uikit/uiview (iOS 2, iPadOS 2, Mac Catalyst 13.1,
/// tvOS 9, visionOS 1; not watchOS)
@available(iOS 2.0, macCatalyst 13.1, tvOS 9.0, visionOS 1.0, *)
@available(watchOS, unavailable)
#if STANDIN_WATCHOS
    @available(*, unavailable, message: "not in watchOS's UIKit")
#endif
@MainActor @preconcurrency open class UIView: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:) (the designated
    /// initializer; `init()` is NSObject's, through it)
    public override init() {}

    /// https://developer.apple.com/documentation/uikit/uiview/window
    open var window: UIWindow? { nil }

    /// https://developer.apple.com/documentation/uikit/uiview/didmovetowindow()
    open func didMoveToWindow() {}
}

/// https://developer.apple.com/documentation/uikit/uiwindow (iOS 2, iPadOS 2, Mac Catalyst 13.1,
/// tvOS 9, visionOS 1; not watchOS)
@available(iOS 2.0, macCatalyst 13.1, tvOS 9.0, visionOS 1.0, *)
@available(watchOS, unavailable)
#if STANDIN_WATCHOS
    @available(*, unavailable, message: "not in watchOS's UIKit")
#endif
@MainActor @preconcurrency open class UIWindow: UIView {
    /// https://developer.apple.com/documentation/uikit/uiwindow/windowscene (iOS 13, iPadOS 13, Mac
    /// Catalyst 13.1, tvOS 13, visionOS 1)
    @available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
    open var windowScene: UIWindowScene? { nil }
}
