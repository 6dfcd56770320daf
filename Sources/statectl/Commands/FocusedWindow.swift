import StateStore

// `--focused` in place of a window id: the window the user sees, as its app recorded it
// (`WindowStore.focus`). Every printable string is a window id, so no spelling of the argument
// could say "the focused one" without clashing with one; a flag cannot.

extension Option {
    /// Stands in place of `<window>` in `show`, `restore` and `set`.
    static let focused = Option.flag(
        "--focused",
        help:
            "In place of <window>: the session's most recently focused window, as its app recorded it. None: exit 66.")
    /// With `--focused`, the kind of window to address.
    static let kind = Option.value(
        "--kind", "kind", as: String.self,
        help: "With --focused: the most recently focused window of this kind (as its app named it: mail, settings).",
        requires: focused.name)
}

extension Argument<String> {
    /// `set`'s window: an id, or `--focused` in its place.
    static let addressedWindow = Argument(
        "window", help: "The window id; or, in its place, --focused.", completion: .windows(sessionArgument: 0),
        standIn: Option.focused.name)
    /// The window of `show` and `restore`: an id, `--focused` in its place, or neither for the
    /// whole session.
    static let optionalAddressedWindow = Argument(
        "window", help: "The window id, or --focused in its place; without either, every window of the session.",
        arity: .optional, completion: .windows(sessionArgument: 0), standIn: Option.focused.name)
}

/// The window a command line addresses.
enum WindowAddress {
    /// `<window>` as given.
    case window(String)
    /// `--focused`, and `--kind` when given.
    case focused(kind: String?)
    /// Neither: the whole session.
    case session

    /// What the command line says, its ids and kind checked as data (exit 65) before anything is
    /// opened; the parser has refused a window and `--focused` together.
    init(_ invocation: Invocation, session: String) throws(StateStoreError) {
        let window = invocation.argument(Argument.optionalAddressedWindow)
        try WindowState.validate(session: session, window: window)
        if invocation.flag(.focused) {
            let kind = invocation.value(Option.kind)
            if let kind { try WindowScene.validate(kind: kind) }
            self = .focused(kind: kind)
        } else {
            self = window.map { .window($0) } ?? .session
        }
    }

    /// The window's id, the focused one looked up in `store`; `nil` for the whole session. No
    /// focused window (of the kind) is exit 66.
    func window(in store: WindowStore, session: String) throws -> String? {
        switch self {
        case .window(let window): return window
        case .session: return nil
        case .focused(let kind):
            guard let window = try store.focusedWindow(session: session, kind: kind) else {
                throw Self.noFocusedWindow(session: session, kind: kind)
            }
            return window
        }
    }

    /// The not-found error for a session with no focused window (of `kind`).
    static func noFocusedWindow(session: String, kind: String?) -> CommandFailure {
        CommandFailure(
            status: ExitStatus.notFound,
            message: "session '\(session)' has no focused window" + (kind.map { " of kind '\($0)'" } ?? ""))
    }

    /// The not-found error for a window with no stored state, saying when it was the focused one.
    func missing(session: String, window: String) -> any Error {
        guard case .focused = self else { return StateStoreError.notFound(.window(session: session, window: window)) }
        return CommandFailure(
            status: ExitStatus.notFound,
            message: "window '\(session)' '\(window)', the session's focused window, has no stored state")
    }

    /// Whether it is `--focused`.
    var isFocused: Bool {
        if case .focused = self { true } else { false }
    }
}
