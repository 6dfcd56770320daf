import StateStore

// How a model sees its stored routes as `R`: each decoded once, the app's values encoded (keeping
// the stored text of what the app did not change), and the state as the user sees it, cut off at
// a route the app cannot decode.

/// What a model's routes decoded to, and the state as the user sees it, made once per change. Not
/// generic: the values themselves are the model's (`decodedValues`), at the positions this keeps,
/// so that a verb's many lookups run code specialized for ``/StateStore/Route`` and touch no
/// generic type's metadata.
struct RouteMemo {
    /// What a route decoded to: where its value is in the model's list, or why it is not one.
    enum Decoding {
        case value(Int)
        case failure(String)
    }

    private(set) var decodings: [Route: Decoding] = [:]
    /// The last visible state, and what it was made from: a verb reads it four times over one state.
    private var visibleKey: (stateVersion: Int, hides: Bool)?
    private var visibleMemo: (state: WindowState, hidden: Route?) = (WindowState(session: "", window: ""), nil)
    /// The undecodable route last named in `lastError`, so that it is named once.
    var reportedHidden: Route?

    subscript(route: Route) -> Decoding? {
        get { decodings[route] }
        set { decodings[route] = newValue }
    }

    /// Why `route` does not decode, if it was tried and did not.
    func failure(of route: Route) -> String? {
        if case .failure(let reason)? = decodings[route] { return reason }
        return nil
    }

    /// The visible state made for `version` of the state and `hides`, if it is the last one made.
    func visible(version: Int, hides: Bool) -> (state: WindowState, hidden: Route?)? {
        guard let key = visibleKey, key.stateVersion == version, key.hides == hides else { return nil }
        return visibleMemo
    }

    /// The last visible state made, whose routes all decoded.
    var lastVisibleState: WindowState { visibleMemo.state }

    /// Keeps `visible`, made for `version` of the state and `hides`.
    mutating func remember(_ visible: (state: WindowState, hidden: Route?), version: Int, hides: Bool) {
        visibleMemo = visible
        visibleKey = (version, hides)
    }

    /// Forgets the decodings of routes `state` no longer holds, once they outnumber it; returns the
    /// positions of the values kept, in their new order (`nil`: nothing forgotten).
    mutating func trim(keeping state: WindowState) -> [Int]? {
        guard decodings.count > 4 * state.routeCount + 64 else { return nil }
        let live = Set(state.path + (state.item.map { [$0] } ?? []) + state.itemPath)
        var kept: [Int] = []
        decodings = decodings.filter { live.contains($0.key) }.mapValues { decoding in
            guard case .value(let index) = decoding else { return decoding }
            kept.append(index)
            return .value(kept.count - 1)
        }
        return kept
    }
}

/// A route the app handed over did not encode.
struct EncodingFailure: Error {
    let reason: String
}

extension WindowModel {
    /// The state as the user sees it: a `dismiss` item hidden while a change of mode settles, and
    /// everything from the first route the app cannot decode on cut off (that route given); made
    /// once per change. Read through the core, so that a view reading it is tracked whether the
    /// memo serves it or not.
    var visible: (state: WindowState, hidden: Route?) {
        let (state, version, hides) = (core.state, core.stateVersion, core.gate.hidesDismissibleItem)
        if let memo = routes.visible(version: version, hides: hides) { return memo }
        let visible = state.visible(hidingDismissible: hides, knownDecodable: routes.lastVisibleState) { route in
            // A split view's column selection is decoded by the column's own type.
            if route.hasType(ColumnSelection.routeType) { return true }
            return switch routes[route] {
            case .value?: true
            case .failure?: false
            case nil: decoded(route) != nil
            }
        }
        routes.remember(visible, version: version, hides: hides)
        return visible
    }

    /// The sheet's routes as shown now, if the item is shown as a sheet.
    var shownSheet: [Route]? { visible.state.layout(for: core.gate.layoutClass).sheet }

    /// `route` as `R`, decoded once; `nil` when it does not decode.
    func decoded(_ route: Route) -> R? {
        switch routes[route] {
        case .value(let index)?: return decodedValues[index]
        case .failure?: return nil
        case nil: break
        }
        do {
            let value = try R(route: route)
            routes[route] = .value(decodedValues.count)
            decodedValues.append(value)
            return value
        } catch {
            // Reported by refreshPresentation, after the change: a view reading this must not
            // change what it observes.
            routes[route] = .failure("\(error)")
            return nil
        }
    }

    func encode(_ value: R) throws -> Route {
        if let stored = storedRoute(for: value) { return stored }
        do {
            return try value.route()
        } catch {
            throw EncodingFailure(reason: "\(error)")
        }
    }

    /// A route of the window already holding `value`, so that an element the app did not change
    /// keeps its stored text.
    private func storedRoute(for value: R) -> Route? {
        let state = core.state
        func holds(_ route: Route) -> Bool {
            if case .value(let index)? = routes[route] { return decodedValues[index] == value }
            return false
        }
        // The path, the item, its stack, in that order, without building the chain of them.
        if let route = state.path.first(where: holds) { return route }
        if let item = state.item, holds(item) { return item }
        return state.itemPath.first(where: holds)
    }

    /// `values` as routes over the shown `routes`: the routes of the longest prefix whose decoded
    /// values are equal are kept as stored, the rest encoded.
    func routes(_ values: [R], over shown: [Route]) throws -> [Route] {
        let common = commonPrefixCount(shown, values) { decoded($0) == $1 }
        return Array(shown.prefix(common)) + (try values[common...].map(encode))
    }

    /// Forgets the decodings of routes the window no longer holds, once they outnumber it.
    func trimDecodings() {
        // At most 64 decodings are always kept: the state (read through observation) is not read
        // for fewer.
        guard routes.decodings.count > 64, let kept = routes.trim(keeping: core.state) else { return }
        decodedValues = kept.map { decodedValues[$0] }
    }
}

extension WindowModel {
    /// Which stored routes the app's data still resolves (a recipe the app no longer has is not):
    /// once set, the routes of the window's path and of the item's stack it refuses are dropped —
    /// the others kept in their order — and an item it refuses is dismissed, as one revision, now
    /// and whenever the window is restored or another writer changes it. A split view's column
    /// selections are the columns' own: a selection the app's data no longer has reads as `nil`.
    ///
    /// ```swift
    /// window.keepsRoute = { recipe in library.recipe(recipe.id) != nil }
    /// ```
    ///
    /// `StateStoreSwiftUI`'s `AdaptiveWindowGroup` and `AdaptiveWindow` set it
    /// from their `keeping:` closure, for the window and the tabs of its route type.
    public var keepsRoute: ((R) -> Bool)? {
        get { routeFilter }
        set {
            let wasSet = routeFilter != nil
            routeFilter = newValue
            if !wasSet { dropRefusedRoutes() }
        }
    }

    /// Drops the routes ``keepsRoute`` refuses, as a change of the model's own (not the user's:
    /// the window does not become the focused one). Nothing while the window is still restoring:
    /// the restored state is checked when it comes.
    func dropRefusedRoutes() {
        guard let keep = routeFilter, !core.isRestoring else { return }
        func kept(_ route: Route) -> Bool { decoded(route).map(keep) ?? true }
        userEdit(focuses: false) { state throws in
            let columns = ColumnSelection.count(in: state.path)
            let path = state.path.enumerated().filter { $0.offset < columns || kept($0.element) }.map(\.element)
            let item = state.item.flatMap { kept($0) ? $0 : nil }
            let itemPath = item == nil ? [] : state.itemPath.filter(kept)
            guard path.count != state.path.count || item != state.item || itemPath.count != state.itemPath.count
            else { return [] }
            return WindowEdit.navigate(over: state, to: path, presenting: item, itemPath: itemPath)
        }
    }
}

extension WindowState {
    /// The state as the user sees it: a `dismiss` item hidden when `hides`, and everything from
    /// the first route that is not decodable on cut off (that route given). A route equal to the
    /// one at its place in `known` (the last state shown, whose routes all decoded) is not looked
    /// up: after a verb, all but one are. Not generic, so that it runs specialized code.
    fileprivate func visible(
        hidingDismissible hides: Bool, knownDecodable known: WindowState, isDecodable: (Route) -> Bool
    ) -> (state: WindowState, hidden: Route?) {
        var shown = self
        if hides && shown.policy == .dismiss { shown.dismiss() }
        func decodable(_ route: Route, at index: Int, of shownRoutes: [Route]) -> Bool {
            index < shownRoutes.count && shownRoutes[index] == route || isDecodable(route)
        }
        // The path, the item, its stack: in that order, without building the chain of them.
        if let cut = shown.path.indices.first(where: { !decodable(shown.path[$0], at: $0, of: known.path) }) {
            let hidden = shown.path[cut]
            shown.path.removeLast(shown.path.count - cut)
            shown.dismiss()
            return (shown, hidden)
        }
        guard let item = shown.item else { return (shown, nil) }
        if item != known.item && !isDecodable(item) {
            shown.dismiss()
            return (shown, item)
        }
        guard
            let cut = shown.itemPath.indices.first(where: {
                !decodable(shown.itemPath[$0], at: $0, of: known.itemPath)
            })
        else { return (shown, nil) }
        let hidden = shown.itemPath[cut]
        shown.itemPath.removeLast(shown.itemPath.count - cut)
        return (shown, hidden)
    }
}
