import StateStore

// How a model sees its stored routes as `R`: decoding them once each, encoding the app's values
// (keeping the stored text of what the app did not change), and the state as the user sees it,
// cut off at a route the app cannot decode.

/// What a route decoded to in a model: where its value is in the model's list, or why it is not one.
enum RouteDecoding {
    case value(Int)
    case failure(String)
}

/// A route the app handed over did not encode.
struct EncodingFailure: Error {
    let reason: String
}

extension WindowModel {
    /// The state as the user sees it: a `dismiss` item hidden while a change of mode settles, and
    /// everything from the first route the app cannot decode on cut off (that route given).
    var visible: (state: WindowState, hidden: Route?) {
        // Read through the core either way, so that a view reading this is tracked whether the
        // memo serves it or not.
        let state = core.state
        let hides = core.gate.hidesDismissibleItem
        if let key = visibleMemoKey, key.stateVersion == core.stateVersion, key.hides == hides { return visibleMemo }
        let visible = state.visible(hidingDismissible: hides, knownDecodable: visibleMemo.state) {
            isDecodable($0)
        }
        visibleMemo = visible
        visibleMemoKey = (core.stateVersion, hides)
        return visible
    }

    /// The sheet's routes as shown now, if the item is shown as a sheet.
    var shownSheet: [Route]? { visible.state.layout(for: core.gate.layoutClass).sheet }

    func decoded(_ route: Route) -> R? {
        switch decodings[route] {
        case .value(let index)?: return decodedValues[index]
        case .failure?: return nil
        case nil: break
        }
        do {
            let value = try R(route: route)
            decodings[route] = .value(decodedValues.count)
            decodedValues.append(value)
            return value
        } catch {
            // Reported by refreshPresentation, after the change: a view reading this must not
            // change what it observes.
            decodings[route] = .failure("\(error)")
            return nil
        }
    }

    func isDecodable(_ route: Route) -> Bool {
        switch decodings[route] {
        case .value?: true
        case .failure?: false
        case nil: decoded(route) != nil
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

    /// A route of the window already holding `value`, so an element the app did not change keeps
    /// its stored text.
    private func storedRoute(for value: R) -> Route? {
        let state = core.state
        func holds(_ route: Route) -> Bool {
            if case .value(let index)? = decodings[route] { return decodedValues[index] == value }
            return false
        }
        // The path, the item, its stack, in that order, without building the chain of them.
        if let route = state.path.first(where: holds) { return route }
        if let item = state.item, holds(item) { return item }
        return state.itemPath.first(where: holds)
    }

    /// `values` as routes over the shown `routes`: the routes of the longest prefix whose decoded
    /// values are equal are kept as stored, the rest encoded.
    func routes(_ values: [R], over routes: [Route]) throws -> [Route] {
        var common = 0
        while common < values.count, common < routes.count, decoded(routes[common]) == values[common] { common += 1 }
        return Array(routes.prefix(common)) + (try values[common...].map(encode))
    }

    /// Forgets the decodings of routes the window no longer holds, once they outnumber it.
    func trimDecodings() {
        let state = core.state
        guard decodings.count > 4 * state.routeCount + 64 else { return }
        let live = Set(state.path + (state.item.map { [$0] } ?? []) + state.itemPath)
        var kept: [R] = []
        decodings = decodings.filter { live.contains($0.key) }.mapValues { decoding in
            guard case .value(let index) = decoding else { return decoding }
            kept.append(decodedValues[index])
            return .value(kept.count - 1)
        }
        decodedValues = kept
    }
}

extension WindowState {
    /// The state as the user sees it (``WindowModel``'s `visible`): a `dismiss` item hidden when
    /// `hides`, and everything from the first route that is not decodable on cut off (that route
    /// given). A route equal to the one at its place in `known` (the last state shown, whose
    /// routes all decoded) is not looked up: after a verb, all but one are. Not generic, so that
    /// it runs specialized code.
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
