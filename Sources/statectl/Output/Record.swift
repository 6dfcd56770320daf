/// One thing described for people, a field per line: labels in a column, values beside them,
/// a value of several lines (a list of routes) continuing under the first. Control characters
/// in values are shown escaped.
///
///     session     mail
///     path        MailApp.Folder:"inbox"
///                 MailApp.Label:"work"
struct Record {
    private var fields: [(label: String, lines: [String])] = []

    mutating func add(_ label: String, _ value: String) {
        fields.append((label, [value.escapingControlCharacters]))
    }

    /// A field of several lines; `(none)` when there are none.
    mutating func add(_ label: String, lines: [String]) {
        fields.append((label, lines.isEmpty ? ["(none)"] : lines.map(\.escapingControlCharacters)))
    }

    func text(style: Style) -> String {
        let width = fields.map(\.label.count).max() ?? 0
        var text = ""
        for field in fields {
            let label = field.label + String(repeating: " ", count: width - field.label.count)
            for (index, line) in field.lines.enumerated() {
                text += (index == 0 ? style.bold(label) : String(repeating: " ", count: width)) + "  " + line + "\n"
            }
        }
        return text
    }
}
