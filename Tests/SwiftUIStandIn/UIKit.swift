// The stand-in `UIKit` module: the UIKit API `Sources/StateStoreSwiftUI` uses, declared as the
// Xcode 16.0 SDK (iOS 18.0) declares it (see README.md). Each declaration cites the page of Apple's
// documentation it copies. Bodies only satisfy the compiler. With it, every `#if canImport(UIKit)`
// branch of the adapter is type-checked (Scripts/check-swiftui.sh), in Swift 6 mode and with
// `-default-isolation MainActor`.
//
// UIKit's classes are Objective-C classes, so `NSObject` subclasses: a method named like one of
// NSObject's (`copy()`, `hash`, `description`) changes meaning or becomes ambiguous, here as on
// Apple platforms (swift-corelibs-foundation's NSObject declares `copy()` too).

import Foundation

// MARK: - Foundation's Apple-only API

// Declared here because swift-corelibs-foundation lacks them; on Apple platforms they are
// Foundation's, which UIKit re-exports.

extension ProcessInfo {
    /// https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
    /// (iOS 8.2, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0; the block runs asynchronously,
    /// `expired` true when the system will not give, or takes back, the time.)
    @available(iOS 8.2, macOS 10.10, tvOS 9.0, watchOS 2.0, *)
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {}
}

extension NSObject {
    /// https://developer.apple.com/documentation/objectivec/nsobject/1416468-value (key-value coding;
    /// on Apple platforms NSObject's instance methods are also class methods of its subclasses,
    /// which reach a class's properties by key path: `UIApplication.value(forKeyPath:)`)
    public class func value(forKeyPath keyPath: String) -> Any? { nil }
}

// MARK: - The application and its scene sessions

/// https://developer.apple.com/documentation/uikit/uiresponder
@available(iOS 2.0, tvOS 9.0, *)
@MainActor @preconcurrency open class UIResponder: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiapplication
@available(iOS 2.0, tvOS 9.0, *)
@MainActor @preconcurrency open class UIApplication: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiapplication/shared (unavailable in app
    /// extensions: the adapter reaches it by key path, and only outside one)
    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    open class var shared: UIApplication { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/uikit/uiapplication/opensessions
    @available(iOS 13.0, tvOS 13.0, *)
    open var openSessions: Set<UISceneSession> { [] }
}

/// https://developer.apple.com/documentation/uikit/uiscenesession
@available(iOS 13.0, tvOS 13.0, *)
@MainActor @preconcurrency open class UISceneSession: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiscenesession/persistentidentifier
    open var persistentIdentifier: String { "" }

    /// https://developer.apple.com/documentation/uikit/uiscenesession/userinfo
    open var userInfo: [String: Any]?
}

/// https://developer.apple.com/documentation/uikit/uiscene
@available(iOS 13.0, tvOS 13.0, *)
@MainActor @preconcurrency open class UIScene: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiscene/session
    open var session: UISceneSession { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/uikit/uiwindowscene
@available(iOS 13.0, tvOS 13.0, *)
@MainActor @preconcurrency open class UIWindowScene: UIScene {}

// MARK: - Views

/// https://developer.apple.com/documentation/uikit/uiview
@available(iOS 2.0, tvOS 9.0, *)
@MainActor @preconcurrency open class UIView: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:) (the designated
    /// initializer; `init()` is NSObject's, through it)
    public override init() {}

    /// https://developer.apple.com/documentation/uikit/uiview/window
    open var window: UIWindow? { nil }

    /// https://developer.apple.com/documentation/uikit/uiview/didmovetowindow()
    open func didMoveToWindow() {}
}

/// https://developer.apple.com/documentation/uikit/uiwindow
@available(iOS 2.0, tvOS 9.0, *)
@MainActor @preconcurrency open class UIWindow: UIView {
    /// https://developer.apple.com/documentation/uikit/uiwindow/windowscene
    @available(iOS 13.0, tvOS 13.0, *)
    open var windowScene: UIWindowScene? { nil }
}
