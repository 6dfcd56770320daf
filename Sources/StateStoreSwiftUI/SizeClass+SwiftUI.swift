#if canImport(SwiftUI)
    import StateStore
    import SwiftUI

    #if !os(macOS)
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
    #endif

    /// What a scene's environment says of a window: its size class and whether it is active. On
    /// macOS, which has no size classes, a window is regular.
    struct SceneEnvironment: Equatable {
        var sizeClass: SizeClass
        var phase: ScenePhase

        /// Only an `.active` scene is active (SPEC §6).
        var isActive: Bool { phase == .active }
    }
#endif
