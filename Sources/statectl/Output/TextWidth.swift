/// How many terminal columns text takes, measured a grapheme cluster (a `Character`) at a time,
/// as terminals draw it: an emoji is two columns however many scalars make it (a flag 🇫🇷 is two
/// regional indicators, ❤️ is U+2764 and the emoji selector U+FE0F, a family 👨‍👩‍👧 is three
/// people joined by U+200D), East Asian wide characters two, combining marks and format
/// characters none, everything else one. Close enough to `wcwidth` to align tables, without
/// depending on the process's locale.
enum TextWidth {
    static func of(_ text: String) -> Int {
        // Most cells are ASCII: one column a byte, no Unicode tables to consult.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// The columns of one grapheme cluster: those of its first scalar, except that an emoji
    /// drawn as one (emoji presentation, or asked for with U+FE0F) is two, and one asked for as
    /// text (U+FE0E) is one.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        let base = scalars.first!
        if scalars.count > 1 {
            if scalars.contains(where: { $0.value == 0xFE0E }) { return min(width(of: base), 1) }
            if base.properties.isEmoji && scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        }
        return width(of: base)
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

    /// `text` cut to at most `limit` columns, ending in `…` when something was cut; never inside
    /// a grapheme cluster.
    static func truncate(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit, of(text) > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = width(of: character)
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
