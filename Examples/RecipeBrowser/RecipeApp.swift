#if canImport(SwiftUI)
    import Foundation
    import StateStoreHost
    import StateStoreSwiftUI
    import SwiftUI

    // MARK: - wiring: the app and its windows

    /// The recipe browser: as many windows as the user opens, each showing the recipes in the
    /// navigation experience it chose — a stack, two columns or three — every experience's place
    /// kept with the window, restored into the size class it has now. A recipe the library no
    /// longer has is dropped from what a window restores.
    @main
    struct RecipeApp: App {
        @State private var session = WindowSession()

        var body: some Scene {
            AdaptiveWindowGroup(id: "recipes", session: session, routes: Recipe.self, keeping: Library.shared.has) {
                window in
                RecipeWindow(window: window)
            }
        }
    }
#endif
