import StateStore

/// A route as the command line gives it — `TYPE`, `TYPE:JSON` or the JSON object
/// `{"type": …, "value": …}` — read by the library. When it is refused and not one `"` reached
/// statectl, the error says what most likely happened: a shell removed the quotes of a route that
/// was not inside single quotes (`--push Folder:"inbox"` arrives as `Folder:inbox`).
enum RouteArgument {
    static func read(_ text: String) throws(StateStoreError) -> Route {
        do {
            return try Route(parsing: text)
        } catch {
            guard case .invalidInput(let message) = error, let hint = strippedQuotesHint(text) else { throw error }
            throw .invalidInput(message + hint)
        }
    }

    /// What to add to the error of a refused route `text` that holds no `"`; `nil` when quotes
    /// cannot be what it lacks (no JSON value, or one a shell leaves alone, such as `42x`).
    static func strippedQuotesHint(_ text: String) -> String? {
        guard !text.contains("\"") else { return nil }
        let general =
            "; no quote reached statectl: a shell removes quotes that are not inside single quotes, so put the"
            + #" whole route inside them, such as 'Thread:{"id":42}'"#
        if text.hasPrefix("{") { return general }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let type = text[..<colon]
        let value = text[text.index(after: colon)...]
        guard let first = value.unicodeScalars.first else { return nil }
        if first == "{" || first == "[" {
            return value.unicodeScalars.contains(where: { $0.properties.isAlphabetic }) ? general : nil
        }
        guard first.properties.isAlphabetic || first == "_" else { return nil }
        if value.contains("'") || value.contains("\\") { return general }
        return "; if you typed \(type):\"\(value)\", a shell removed its quotes: put the whole route inside"
            + " single quotes, '\(type):\"\(value)\"'"
    }
}
