// Text from the database (ids and route types written by hand, with `sqlite3` or another
// program) can hold control characters. Printed raw for people, `ESC ]0;…` would retitle the
// terminal, `ESC [2J` clear it, a carriage return hide what came before; so what is printed for
// people shows each of them, visibly, as `\u{1B}`. `--json` keeps the data exact (JSON escapes it).

extension String {
    /// The text with every control character (Unicode category Cc: U+0000–U+001F, U+007F–U+009F)
    /// written as `\u{HEX}`, such as `\u{1B}`, `\u{9}` for a tab, `\u{7F}`.
    var escapingControlCharacters: String { escapingControlCharacters(keepingNewlines: false) }

    /// The same, keeping line feeds as they are: for messages of several lines.
    func escapingControlCharacters(keepingNewlines: Bool) -> String {
        // Most text holds none: no byte below 0x20, no DEL, no 0xC2 (which leads U+0080–U+00BF).
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return self }
        var result = ""
        result.unicodeScalars.reserveCapacity(unicodeScalars.count)
        for scalar in unicodeScalars {
            let value = scalar.value
            if (value < 0x20 || (0x7F...0x9F).contains(value)) && !(keepingNewlines && value == 0x0A) {
                result += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
