/// One screenful of character cells, drawn into and then serialized a line at a time.
///
/// Every character drawn is one column wide: text that comes from outside (a route value written
/// with `statectl`) is shown with anything beyond printable ASCII as `\u{…}`, so a stored string
/// can neither move the cursor nor send the terminal a command, and widths are exact.
struct Canvas {
    enum Style: Hashable {
        case plain
        case bold
        case selected
        case dim
        case status
        case error
    }

    struct Cell: Hashable {
        var character: Character = " "
        var style: Style = .plain
    }

    let columns: Int
    let rows: Int
    private(set) var cells: [[Cell]]

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
    }

    /// Draws `text` from `column` on `row`, cut with "…" where it would pass `width` columns (or
    /// the edge).
    mutating func put(_ text: String, row: Int, column: Int = 0, width: Int? = nil, style: Style = .plain) {
        guard (0..<rows).contains(row), column < columns else { return }
        let room = min(width ?? columns - column, columns - column)
        guard room > 0 else { return }
        var characters = Array(Canvas.printable(text))
        if characters.count > room { characters = characters.prefix(room - 1) + ["…"] }
        for (offset, character) in characters.enumerated() {
            cells[row][column + offset] = Cell(character: character, style: style)
        }
    }

    /// Fills columns `from..<to` of `row` with `character`.
    mutating func fill(row: Int, from: Int = 0, to: Int? = nil, with character: Character = " ", style: Style = .plain)
    {
        guard (0..<rows).contains(row) else { return }
        let end = min(to ?? columns, columns)
        for column in max(from, 0)..<max(end, max(from, 0)) {
            cells[row][column] = Cell(character: character, style: style)
        }
    }

    /// Gives every cell of `rows` the style `style`.
    mutating func restyle(rows range: Range<Int>, as style: Style) {
        for row in range where (0..<rows).contains(row) {
            for column in 0..<columns { cells[row][column].style = style }
        }
    }

    /// Row `row` as text for the terminal: runs of one style behind their SGR sequence (none
    /// with `color` off), trailing blanks left to the erase that follows it.
    func line(_ row: Int, color: Bool) -> String {
        var end = columns
        while end > 0, cells[row][end - 1] == Cell() { end -= 1 }
        var text = ""
        var current = Style.plain
        for cell in cells[row][..<end] {
            if color && cell.style != current {
                text += Canvas.sgr(cell.style)
                current = cell.style
            }
            text.append(cell.character)
        }
        if color && current != .plain { text += Canvas.sgr(.plain) }
        return text
    }

    private static func sgr(_ style: Style) -> String {
        switch style {
        case .plain: "\u{1B}[0m"
        case .bold: "\u{1B}[0;1m"
        case .selected: "\u{1B}[0;7m"
        case .dim: "\u{1B}[0;2m"
        case .status: "\u{1B}[0;30;46m"
        case .error: "\u{1B}[0;1;31m"
        }
    }

    /// The characters mailhost draws itself besides printable ASCII (all one column wide).
    private static let drawing: Set<Character> = ["─", "│", "┌", "┐", "└", "┘", "›", "…", "·"]

    /// `text` with its control characters (Unicode category Cc) written as their code points, as
    /// statectl shows them: for messages, which a terminal shows whatever their width.
    static func escapingControlCharacters(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// `text` with every character that is not printable ASCII, nor one of the drawing characters,
    /// written as its code points, Swift's way: `\u{1B}`.
    static func printable(_ text: String) -> String {
        var shown = ""
        for character in text {
            if character.isASCII && !(character.asciiValue! < 0x20 || character.asciiValue! == 0x7F)
                || drawing.contains(character)
            {
                shown.append(character)
            } else {
                for scalar in character.unicodeScalars {
                    shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                }
            }
        }
        return shown
    }
}
