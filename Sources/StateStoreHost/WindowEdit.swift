import StateStore

/// One change the user made to a window, in the store's terms, kept until it is written so that
/// it can be made again on top of a state another writer committed (SPEC §6: "re-applied on top
/// of it as the edits they were").
///
/// A model records what the user did as the difference between what was shown and what is shown
/// now (``WindowState/edits(to:)``): an edit of the window's path, of the presented item, of the
/// routes above it, of the policy. Each applies on its own, so another writer's change to one part
/// leaves the user's change to another as it was.
enum WindowEdit: Hashable, Sendable, CustomStringConvertible {
    /// The path or the routes above the item, as the stack edit it was.
    case stack(StackEdit)
    case present(Route)
    case dismiss
    case setPolicy(SizeChangePolicy)
    /// A size-class change that has settled; `changesMode` carries the policy's effect.
    case sizeClass(SizeClass, changesMode: Bool)
    /// The user edited below a stored route the app cannot decode, which replaces it and what
    /// lies above it: the window's stack from that route on is removed (nothing, where the route
    /// is no longer there).
    case replaceUndecodable(Route)

    /// Makes the edit on `state`; throws, changing nothing, when it no longer applies.
    func apply(to state: inout WindowState) throws(StateStoreError) {
        switch self {
        case .stack(let edit): try state.apply(edit)
        case .present(let route): state.present(route)
        case .dismiss: state.dismiss()
        case .setPolicy(let policy): state.policy = policy
        case .sizeClass(let sizeClass, let changesMode):
            if changesMode && state.policy == .dismiss { state.dismiss() }
            state.sizeClass = sizeClass
        case .replaceUndecodable(let route):
            let chain = state.path + (state.item.map { [$0] + state.itemPath } ?? [])
            guard let index = chain.firstIndex(of: route) else { return }
            try state.apply(StackEdit(part: .chain, removing: chain.count - index, appending: [], keepsItem: false))
        }
    }

    /// The edit for `lastError`, when it was dropped.
    var description: String {
        switch self {
        case .stack(let edit):
            let part = edit.part == .path ? "the window's path" : "the presented item's stack"
            let appended = edit.appending.map(\.description).joined(separator: ", ")
            return edit.appending.isEmpty
                ? "going back \(edit.removing) in \(part)" : "pushing \(appended) onto \(part)"
        case .present(let route): return "presenting \(route)"
        case .dismiss: return "dismissing the item"
        case .setPolicy(let policy): return "setting the policy to \(policy.rawValue)"
        case .sizeClass(let sizeClass, _): return "the size class \(sizeClass.rawValue)"
        case .replaceUndecodable(let route): return "replacing \(route)"
        }
    }
}

extension WindowState {
    /// The edits that take this state to `new`, part by part: the path, the item, the routes above
    /// the item, the policy. Applied to this state they give `new` (ids, size class, revision aside).
    func edits(to new: WindowState) -> [WindowEdit] {
        var edits: [WindowEdit] = []
        if let edit = Self.difference(path, new.path, .path, keepsItem: false) { edits.append(.stack(edit)) }
        if let presented = new.item {
            if item == presented {
                let above = Self.difference(
                    [presented] + itemPath, [presented] + new.itemPath, .presented, keepsItem: true)
                if let above { edits.append(.stack(above)) }
            } else {
                edits.append(.present(presented))
                if !new.itemPath.isEmpty {
                    edits.append(
                        .stack(StackEdit(part: .presented, removing: 0, appending: new.itemPath, keepsItem: true)))
                }
            }
        } else if item != nil {
            edits.append(.dismiss)
        }
        if policy != new.policy { edits.append(.setPolicy(new.policy)) }
        return edits
    }

    private static func difference(
        _ old: [Route], _ new: [Route], _ part: StackEdit.Part, keepsItem: Bool
    ) -> StackEdit? {
        var common = 0
        while common < old.count, common < new.count, old[common] == new[common] { common += 1 }
        let edit = StackEdit(
            part: part, removing: old.count - common, appending: Array(new[common...]), keepsItem: keepsItem)
        return edit.isEmpty ? nil : edit
    }
}

extension [WindowEdit] {
    /// The edits made again on `base`, in order: the state they give, and the positions of those
    /// that no longer applied (left out).
    func replayed(on base: WindowState) -> (state: WindowState, dropped: [Int]) {
        var state = base
        var dropped: [Int] = []
        for (position, edit) in enumerated() {
            do {
                try edit.apply(to: &state)
            } catch {
                dropped.append(position)
            }
        }
        return (state, dropped)
    }
}
