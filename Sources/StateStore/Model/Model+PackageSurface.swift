// The Model room's package surface: declarations that exist for StateStoreHost and statectl,
// beyond the public API, each saying who uses it and why. Package declarations of this room
// that those two use and the engine is itself built on stay with the code they belong to, marked
// "Package surface:" in their documentation, as in every room: `grep -rn "Package surface"
// Sources/StateStore` lists the whole surface.

extension WindowState {
    /// Checks a session id, and a window id when given, as every store call does (1–256 bytes
    /// of UTF-8, no control characters), so a caller can refuse bad ids before opening anything.
    ///
    /// Package surface: the host's session (StateStoreHost's `WindowSession`) and statectl's
    /// commands refuse bad ids with it before they open the store, statectl with its usage status.
    package static func validate(session: String, window: String? = nil) throws(StateStoreError) {
        try validateIdentifier(session, "session id")
        if let window { try validateIdentifier(window, "window id") }
    }

    /// Checks a tab's name as the store does: as an id, 1–256 bytes of UTF-8, no control characters.
    ///
    /// Package surface: `statectl set --tab` checks its tab with it before it opens the store.
    package static func validate(selectedTab: String) throws(StateStoreError) {
        try validateIdentifier(selectedTab, "selected tab")
    }
}

extension Route {
    /// A route from the command-line form `TYPE` (value `null`) or `TYPE:JSON`, split at the
    /// first `:`, such as `Folder:"inbox"` or `Thread:{"id":42}`; or, for an argument starting
    /// with `{`, the JSON object `{"type": …, "value": …}` (`value` optional), which any type
    /// can be written in (`{"type":"(a: Swift.Int, b: Swift.Int)","value":[1,2]}`).
    ///
    /// Package surface: `statectl set` reads its `--push` and `--present` routes with it.
    package init(parsing argument: String) throws(StateStoreError) {
        if argument.utf8.first == UInt8(ascii: "{") {
            do {
                self = try JSONReader.read(argument) { reader throws(JSONReader.Failure) in
                    let route = try reader.readRoute()
                    try reader.expectEnd()
                    return route
                }
            } catch {
                throw .invalidInput("route written as a JSON object: \(error.description)")
            }
            return
        }
        guard let colon = argument.utf8.firstIndex(of: UInt8(ascii: ":")) else {
            try self.init(type: argument)
            return
        }
        let type = String(argument[..<colon])
        let json = String(argument[argument.index(after: colon)...])
        guard !json.isEmpty else {
            throw .invalidInput("route '\(argument)': nothing after ':' (write TYPE for a null value, or TYPE:JSON)")
        }
        try self.init(type: type, json: json)
    }
}
