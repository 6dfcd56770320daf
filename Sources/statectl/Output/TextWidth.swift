/// How many terminal columns text takes: East Asian wide characters and emoji take two,
/// combining marks and format characters none, everything else one. Close enough to `wcwidth`
/// to align tables, without depending on the process's locale.
enum TextWidth {
    static func of(_ text: String) -> Int {
        // Most cells are ASCII: one column a byte, no Unicode tables to consult.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        let value = scalar.value
        if value < 0x1100 { return 1 }
        if scalar.properties.isEmojiPresentation { return 2 }
        for range in wideRanges where range.contains(value) { return 2 }
        return 1
    }

    /// `text` cut to at most `limit` columns, ending in `…` when something was cut.
    static func truncate(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit, of(text) > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(String(character))
            if used + width > limit - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    // Unicode's East Asian Wide and Fullwidth blocks, in outline.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]
}
