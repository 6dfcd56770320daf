#if canImport(SwiftUI)
    import StateStore
    import SwiftUI

    extension SizeClass {
        /// The class SwiftUI's `horizontalSizeClass` reports; `nil` (not known yet) is `.unspecified`.
        public init(_ sizeClass: UserInterfaceSizeClass?) {
            if sizeClass == .regular {
                self = .regular
            } else if sizeClass == .compact {
                self = .compact
            } else {
                self = .unspecified
            }
        }
    }

    /// What a scene's environment says of a window: its size class and whether it is active.
    struct SceneEnvironment: Equatable {
        var sizeClass: SizeClass
        var phase: ScenePhase

        /// Only an `.active` scene is active: an inactive one (a snapshot, the app switcher) only
        /// remembers size-class flips, and a background one is being suspended.
        var isActive: Bool { phase == .active }

        /// The environment of a view that reads `horizontalSizeClass` and `scenePhase`. A Mac
        /// window (AppKit without UIKit: not Mac Catalyst) is regular: the Xcode 16 SDK declares
        /// `horizontalSizeClass` on macOS, but what it reports there is not checked anywhere this
        /// package is tested, so it is not relied on (StateStoreHost.docc, "Apple platforms").
        init(horizontalSizeClass: UserInterfaceSizeClass?, phase: ScenePhase) {
            #if canImport(AppKit) && !canImport(UIKit)
                sizeClass = .regular
            #else
                sizeClass = SizeClass(horizontalSizeClass)
            #endif
            self.phase = phase
        }
    }
#endif
