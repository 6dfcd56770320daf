import StateStore

// How a model sees its stored routes as `R`: each decoded once, the app's values encoded (keeping
// the stored text of what the app did not change), and the state as the user sees it, cut off at
// a route the app cannot decode.

/// A model's routes as `R`: what each decoded to, and the state as the user sees it, made once per
/// change. The cache itself keeps no `R` in its keys, so a verb's many lookups run code
/// specialized for ``/StateStore/Route``; the values are in a list beside it.
struct DecodedRoutes<R: RouteRepresentable> {
    /// What a route decoded to: where its value is in the list, or why it is not one.
    private enum Decoding {
        case value(Int)
        case failure(String)
    }

    private var decodings: [Route: Decoding] = [:]
    private var values: [R] = []
    /// The last visible state, and what it was made from: a verb reads it four times over one state.
    private var visibleKey: (stateVersion: Int, hides: Bool)?
    private var visibleMemo: (state: WindowState, hidden: Route?) = (WindowState(session: "", window: ""), nil)
    /// The undecodable route last named in `lastError`, so that it is named once.
    var reportedHidden: Route?

    /// `route` as `R`, decoded once; `nil` when it does not decode.
    mutating func decoded(_ route: Route) -> R? {
        switch decodings[route] {
        case .value(let index)?: return values[index]
        case .failure?: return nil
        case nil: break
        }
        do {
            let value = try R(route: route)
            decodings[route] = .value(values.count)
            values.append(value)
            return value
        } catch {
            decodings[route] = .failure("\(error)")
            return nil
        }
    }

    /// Why `route` does not decode, if it was tried and did not.
    func failure(of route: Route) -> String? {
        if case .failure(let reason)? = decodings[route] { return reason }
        return nil
    }

    /// The state as the user sees it: a `dismiss` item hidden while a change of mode settles
    /// (`hides`), and everything from the first route the app cannot decode on cut off (that route
    /// given). `version` counts the changes of `state`.
    mutating func visible(_ state: WindowState, version: Int, hides: Bool) -> (state: WindowState, hidden: Route?) {
        if let key = visibleKey, key.stateVersion == version, key.hides == hides { return visibleMemo }
        let known = visibleMemo.state
        let visible = state.visible(hidingDismissible: hides, knownDecodable: known) { route in
            switch decodings[route] {
            case .value?: return true
            case .failure?: return false
            case nil: return decoded(route) != nil
            }
        }
        visibleMemo = visible
        visibleKey = (version, hides)
        return visible
    }

    /// A route of `state` already holding `value`, so that an element the app did not change keeps
    /// its stored text.
    func storedRoute(for value: R, in state: WindowState) -> Route? {
        func holds(_ route: Route) -> Bool {
            if case .value(let index)? = decodings[route] { return values[index] == value }
            return false
        }
        // The path, the item, its stack, in that order, without building the chain of them.
        if let route = state.path.first(where: holds) { return route }
        if let item = state.item, holds(item) { return item }
        return state.itemPath.first(where: holds)
    }

    /// Forgets the decodings of routes `state` no longer holds, once they outnumber it.
    mutating func trim(keeping state: WindowState) {
        guard decodings.count > 4 * state.routeCount + 64 else { return }
        let live = Set(state.path + (state.item.map { [$0] } ?? []) + state.itemPath)
        var kept: [R] = []
        decodings = decodings.filter { live.contains($0.key) }.mapValues { decoding in
            guard case .value(let index) = decoding else { return decoding }
            kept.append(values[index])
            return .value(kept.count - 1)
        }
        values = kept
    }
}

/// A route the app handed over did not encode.
struct EncodingFailure: Error {
    let reason: String
}

extension WindowModel {
    /// The state as the user sees it (``DecodedRoutes/visible(_:version:hides:)``), read through
    /// the core, so that a view reading it is tracked whether the memo serves it or not.
    var visible: (state: WindowState, hidden: Route?) {
        routes.visible(core.state, version: core.stateVersion, hides: core.gate.hidesDismissibleItem)
    }

    /// The sheet's routes as shown now, if the item is shown as a sheet.
    var shownSheet: [Route]? { visible.state.layout(for: core.gate.layoutClass).sheet }

    func decoded(_ route: Route) -> R? {
        routes.decoded(route)
    }

    func encode(_ value: R) throws -> Route {
        if let stored = routes.storedRoute(for: value, in: core.state) { return stored }
        do {
            return try value.route()
        } catch {
            throw EncodingFailure(reason: "\(error)")
        }
    }

    /// `values` as routes over the shown `routes`: the routes of the longest prefix whose decoded
    /// values are equal are kept as stored, the rest encoded.
    func routes(_ values: [R], over shown: [Route]) throws -> [Route] {
        let common = commonPrefixCount(shown, values) { decoded($0) == $1 }
        return Array(shown.prefix(common)) + (try values[common...].map(encode))
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
