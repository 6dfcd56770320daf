#if canImport(SwiftUI)
    import StateStoreHost
    import SwiftUI

    // Bindings to what a window selects, for views of the app's own: the same spelling as the
    // model's subscripts, through `@Bindable` (`$window[sidebar: Category.self]`). Each names the
    // model's route type in a last parameter with a default (`routes:`), never written: a generic
    // parameter that only a `where` clause names is refused.

    extension Bindable {
        /// A binding to the window's sidebar selection, as the app's own type:
        /// `List(selection: $window[sidebar: Category.self])`.
        @MainActor
        public subscript<R: RouteRepresentable, Selection: Codable & Hashable>(
            sidebar type: Selection.Type, routes routes: R.Type = R.self
        ) -> Binding<Selection?> where Value == WindowModel<R> {
            self[dynamicMember: \WindowModel<R>.[column: ColumnKey<Selection>(isContent: false)]]
        }

        /// A binding to the window's content-column selection, as the app's own type.
        @MainActor
        public subscript<R: RouteRepresentable, Selection: Codable & Hashable>(
            content type: Selection.Type, routes routes: R.Type = R.self
        ) -> Binding<Selection?> where Value == WindowModel<R> {
            self[dynamicMember: \WindowModel<R>.[column: ColumnKey<Selection>(isContent: true)]]
        }

        /// A binding to the tab the window shows, as the app's own key type (its first case when
        /// none is chosen): `TabView(selection: $window[selectedTab: BrowseTab.self])`, or a
        /// `Picker`'s selection.
        @MainActor
        public subscript<R: RouteRepresentable, Key: TabKey & CaseIterable>(
            selectedTab type: Key.Type, routes routes: R.Type = R.self
        ) -> Binding<Key> where Value == WindowModel<R> {
            self[dynamicMember: \WindowModel<R>.[tabSelection: Key.allCases.first!]]
        }

        /// A binding to the tab the window shows, `fallback` when none is chosen.
        @MainActor
        public subscript<R: RouteRepresentable, Key: TabKey>(
            selectedTab type: Key.Type, default fallback: Key, routes routes: R.Type = R.self
        ) -> Binding<Key> where Value == WindowModel<R> {
            self[dynamicMember: \WindowModel<R>.[tabSelection: fallback]]
        }
    }
#endif
