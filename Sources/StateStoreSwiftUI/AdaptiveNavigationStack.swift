#if canImport(SwiftUI)
    import Observation
    import StateStore
    import StateStoreHost
    import SwiftUI

    /// A window's navigation stack over its ``WindowModel``: a `NavigationStack` on the model's
    /// ``WindowModel/stack``, its item pushed there when regular and presented as a sheet (with a
    /// stack of its own, on ``WindowModel/sheetPath``) otherwise. Every decision is the model's.
    public struct AdaptiveNavigationStack<R: RouteRepresentable, Root: View, Destination: View>: View {
        @Bindable private var window: WindowModel<R>
        private let root: () -> Root
        private let destination: (R) -> Destination

        /// A stack showing `root` at its bottom and `destination` for each route above it.
        public init(
            _ window: WindowModel<R>, @ViewBuilder root: @escaping () -> Root,
            @ViewBuilder destination: @escaping (R) -> Destination
        ) {
            self.window = window
            self.root = root
            self.destination = destination
        }

        /// The stack, and the sheet when the item is shown as one.
        public var body: some View {
            NavigationStack(path: $window.stack) {
                root().navigationDestination(for: R.self, destination: destination)
            }
            .adaptivePresentation(window, destination: destination)
        }
    }

    extension View {
        /// Presents `window`'s item as a sheet when its layout says so: a `NavigationStack` on the
        /// model's ``WindowModel/sheetPath`` whose root is the presented route. For views that keep
        /// their own `NavigationStack(path: $window.stack)` (or a split view's detail column).
        public func adaptivePresentation<R: RouteRepresentable, Destination: View>(
            _ window: WindowModel<R>, @ViewBuilder destination: @escaping (R) -> Destination
        ) -> some View {
            modifier(AdaptivePresentation(window: window, destination: destination))
        }
    }

    /// The sheet of ``View/adaptivePresentation(_:destination:)``, bound through `@Bindable`.
    struct AdaptivePresentation<R: RouteRepresentable, Destination: View>: ViewModifier {
        @Bindable var window: WindowModel<R>
        let destination: (R) -> Destination

        func body(content: Content) -> some View {
            content.sheet(item: $window.sheet) { presented in
                NavigationStack(path: $window.sheetPath) {
                    destination(presented.route).navigationDestination(for: R.self, destination: destination)
                }
            }
            // The stack under the sheet is drawn: a sheet the same change presented may show, for
            // every model shown this way (a window, a tab, a preview).
            .onAppear { window.presentationReady() }
            .onChange(of: window.stack) { _, _ in window.presentationReady() }
        }
    }
#endif
