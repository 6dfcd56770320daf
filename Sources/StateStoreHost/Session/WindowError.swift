import StateStore

/// What went wrong for a window, as its model's ``WindowModel/lastError`` reports it. The model
/// keeps working in memory through every one of them.
public enum WindowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store failed a read or a write; a write is tried again with the next change (busy:
    /// also until a flush's deadline).
    case store(StateStoreError)
    /// The window's state is over the store's limits: nothing is written for it until it fits again.
    case overLimits(StateStoreError)
    /// The window id is one the store refuses: this model works in memory only.
    case invalidWindowID(String, StateStoreError)
    /// The window was asked for with another route type than the model that shows it: this model
    /// works in memory only.
    case typeMismatch(window: String, shownAs: String, askedAs: String)
    /// The route type's name is not the same from one build to the next (a `private`,
    /// `fileprivate` or local type), so nothing of it can be stored: the model works in memory only.
    case unstableRouteType(String)
    /// A second view attached to a window that a view already shows.
    case secondAttachment(window: String)
    /// A stored route the app's type cannot decode: it stays in the store and hides what lies above
    /// it until the user edits at or below it, which replaces it.
    case undecodableRoute(Route, reason: String)
    /// A route the app handed over did not encode, so the change was not made.
    case unencodableRoute(reason: String)
    /// A verb asked for what the window cannot do (popping more than there is): nothing changed.
    case invalidEdit(StateStoreError)
    /// Another writer's change was adopted, and these local edits no longer applied on top of it.
    case editsDropped([String])
    /// A row of the change log could not be read and was skipped.
    case unreadableChange(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .store(let error): "the store failed: \(error)"
        case .overLimits(let error): "not saved: \(error)"
        case .invalidWindowID(let id, let error): "window id '\(id)' cannot be stored (\(error)); kept in memory only"
        case let .typeMismatch(window, shownAs, askedAs):
            "window '\(window)' is shown with routes of \(shownAs), not \(askedAs); kept in memory only"
        case .unstableRouteType(let name):
            "routes of '\(name)' cannot be stored: a local, private or fileprivate type's name is not stable from one build to the next; declare the type at file scope (or inside such a type) with internal or public access; kept in memory only"
        case .secondAttachment(let window): "window '\(window)' is already shown by another view"
        case let .undecodableRoute(route, reason):
            "the stored route \(route) does not decode (\(reason)); what lies above it is hidden until an edit replaces it"
        case .unencodableRoute(let reason): "a route did not encode: \(reason)"
        case .invalidEdit(let error): "\(error)"
        case .editsDropped(let edits):
            "another writer changed the window; these edits no longer applied: \(edits.joined(separator: "; "))"
        case .unreadableChange(let problem): "a change could not be read: \(problem)"
        }
    }
}

extension WindowError {
    /// Whether this is trouble with the storage the user should hear of (the disk is full, the file
    /// is read-only, busy past a deadline, damaged or unreachable) rather than a mistake of the
    /// app's code (an over-pop, a route that does not decode or encode, a window id the store
    /// refuses, one window shown twice), which the app's developer fixes.
    public var isStorageTrouble: Bool {
        switch self {
        case .store: true
        case .overLimits, .invalidWindowID, .typeMismatch, .unstableRouteType, .secondAttachment, .undecodableRoute,
            .unencodableRoute,
            .invalidEdit, .editsDropped, .unreadableChange:
            false
        }
    }
}
