import Foundation
import Testing

/// Keys as a terminal sends them.
enum Keys {
    static let up = "\u{1B}[A"
    static let down = "\u{1B}[B"
    static let enter = "\r"
    static let backspace = "\u{7F}"
    static let escape = "\u{1B}"
    static let interrupt = "\u{03}"
    static let suspend = "\u{1A}"
}

/// A mailhost route as `statectl` takes it: `mailhost.MailRoute:{"message":{"_0":11}}`.
func mailRoute(_ json: String) -> String {
    "mailhost.MailRoute:" + json
}

extension MailFixture {
    /// Writes window `window` with `statectl set mailhost WINDOW mutations...`, before a launch.
    func prepare(_ mutations: [String], window: String = "main") throws {
        let result = try statectl(["set", "mailhost", window] + mutations)
        guard result.status == 0 else { throw HarnessError(description: "set: \(result.stderr)") }
    }

    /// A window saved regular with message 11 pushed over its thread, under `policy`.
    func prepareMessageOverItsThread(policy: String) throws {
        try prepare([
            "--size-class", "regular", "--push", mailRoute(#"{"folder":{"_0":"Inbox"}}"#),
            "--push", mailRoute(#"{"thread":{"_0":1}}"#), "--present", mailRoute(#"{"message":{"_0":11}}"#),
            "--policy", policy,
        ])
    }
}

extension TerminalModel {
    /// Whether a sheet's frame is drawn.
    var showsSheet: Bool { text.contains("┌") }

    /// The breadcrumbs row.
    var breadcrumbs: String { lines.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }

    /// The status line (the last row).
    var status: String { lines.last ?? "" }
}

/// The route `value` of a stored window's field (`item`, or an element of `path`), as JSON text
/// with sorted keys.
func routeValue(_ route: Any?) -> String? {
    guard let object = route as? [String: Any], let value = object["value"] else { return nil }
    let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
    return data.map { String(decoding: $0, as: UTF8.self) }
}
