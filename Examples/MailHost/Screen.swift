/// What one frame shows, taken from the window model and nothing else: the window's stack, the
/// sheet over it (if the model shows one), and the status. ``draw(columns:rows:)`` lays it out.
struct Screen {
    /// A stack as drawn: its breadcrumbs and the page of its top route.
    struct Stack {
        var titles: [String]
        var page: Page
        /// The selected row, when this stack has the focus.
        var selection: Int?
    }

    var window: Stack
    var sheet: Stack?
    var error: String?
    var status: String

    /// The keys the line above the status names, most needed first: "q quit" last.
    static let keys = ["up/down select", "enter open", "esc back", "c compose", "p policy", "q quit"]

    /// The line of keys, fitted into `width` columns: the keys least needed go first, never "q quit".
    static func keys(width: Int) -> String {
        var shown = keys
        var text = shown.joined(separator: " · ")
        while text.count > width && shown.count > 2 {
            shown.remove(at: shown.count - 2)
            text = shown.joined(separator: " · ")
        }
        return text
    }

    /// The smallest terminal mailhost draws in.
    static let minimum = (columns: 30, rows: 8)

    /// The frame, laid out for a terminal of `columns` × `rows`.
    ///
    /// Breadcrumbs on the first row, the top page's text and rows below, the sheet framed over the
    /// window's page, then the last error, the keys and the status line.
    func draw(columns: Int, rows: Int) -> Canvas {
        var canvas = Canvas(columns: columns, rows: rows)
        guard columns >= Screen.minimum.columns, rows >= Screen.minimum.rows else {
            canvas.put(
                "mailhost needs \(Screen.minimum.columns)x\(Screen.minimum.rows); this is \(columns)x\(rows)", row: 0)
            return canvas
        }
        let body = 2..<(rows - 3)
        canvas.put(Screen.breadcrumbs(window.titles, width: columns - 1), row: 0, column: 1, style: .bold)
        canvas.fill(row: 1, with: "─")
        Screen.draw(window.page, selection: window.selection, in: &canvas, rows: body, columns: 1..<(columns - 1))
        if let sheet {
            canvas.restyle(rows: body, as: .dim)
            // The sheet covers the window but for its breadcrumbs and first row, like a card (in a
            // short terminal, all of the window's page).
            let frame = body.count >= 6 ? (body.lowerBound + 1)..<body.upperBound : body
            for row in frame { canvas.fill(row: row) }
            drawFrame(sheet, in: &canvas, rows: frame, columns: 1..<(columns - 1))
        }
        if let error { canvas.put("error: " + error, row: rows - 3, column: 1, style: .error) }
        canvas.put(Screen.keys(width: columns - 2), row: rows - 2, column: 1)
        canvas.fill(row: rows - 1, style: .status)
        canvas.put(status, row: rows - 1, column: 1, width: columns - 2, style: .status)
        return canvas
    }

    /// The sheet: a frame whose top edge carries the sheet's breadcrumbs, its page inside.
    private func drawFrame(_ sheet: Stack, in canvas: inout Canvas, rows: Range<Int>, columns: Range<Int>) {
        guard rows.count >= 3, columns.count >= 8 else { return }
        let top = rows.lowerBound
        let bottom = rows.upperBound - 1
        for row in rows { canvas.fill(row: row, from: columns.lowerBound, to: columns.upperBound) }
        canvas.fill(row: top, from: columns.lowerBound, to: columns.upperBound, with: "─")
        canvas.fill(row: bottom, from: columns.lowerBound, to: columns.upperBound, with: "─")
        for row in (top + 1)..<bottom {
            canvas.put("│", row: row, column: columns.lowerBound)
            canvas.put("│", row: row, column: columns.upperBound - 1)
        }
        canvas.put("┌", row: top, column: columns.lowerBound)
        canvas.put("┐", row: top, column: columns.upperBound - 1)
        canvas.put("└", row: bottom, column: columns.lowerBound)
        canvas.put("┘", row: bottom, column: columns.upperBound - 1)
        let titleWidth = columns.count - 6
        canvas.put(
            " " + Screen.breadcrumbs(sheet.titles, width: titleWidth - 2) + " ", row: top,
            column: columns.lowerBound + 2, width: titleWidth, style: .bold)
        Screen.draw(
            sheet.page, selection: sheet.selection, in: &canvas, rows: (top + 1)..<bottom,
            columns: (columns.lowerBound + 2)..<(columns.upperBound - 2))
    }

    /// A page's text, then its rows, the selected one marked (and scrolled into view).
    private static func draw(
        _ page: Page, selection: Int?, in canvas: inout Canvas, rows: Range<Int>, columns: Range<Int>
    ) {
        var lines: [(text: String, style: Canvas.Style)] = page.lines.map { ($0, .plain) }
        if !page.lines.isEmpty && !page.rows.isEmpty { lines.append(("", .plain)) }
        let firstRow = lines.count
        for (index, row) in page.rows.enumerated() {
            let selected = index == selection
            lines.append(((selected ? "> " : "  ") + row.label, selected ? .selected : .plain))
        }
        if lines.isEmpty { lines = [("(empty)", .dim)] }
        var offset = 0
        if let selection, firstRow + selection >= rows.count {
            offset = firstRow + selection - rows.count + 1
        }
        for (line, row) in zip(lines.dropFirst(offset), rows) {
            canvas.put(line.text, row: row, column: columns.lowerBound, width: columns.count, style: line.style)
        }
    }

    /// `titles` joined by " › ", its start dropped for "… › " when it is wider than `width`.
    static func breadcrumbs(_ titles: [String], width: Int) -> String {
        var shown = titles
        var text = shown.joined(separator: " › ")
        while text.count > width && shown.count > 1 {
            shown.removeFirst()
            text = "… › " + shown.joined(separator: " › ")
        }
        return text
    }
}

/// What was last written to the terminal, so that the next frame writes only the lines that
/// changed.
struct FrameWriter {
    private var lines: [String] = []
    private var size: Terminal.Size?

    /// Forgets what the terminal shows: the next frame clears the screen and writes every line
    /// (after a resize, or coming back from a suspension).
    mutating func invalidate() {
        size = nil
        lines = []
    }

    /// The output that turns the last frame into `canvas`.
    mutating func update(to canvas: Canvas, color: Bool) -> String {
        let now = Terminal.Size(columns: canvas.columns, rows: canvas.rows)
        var output = ""
        if size != now {
            output += (color ? Escape.reset : "") + Escape.home + Escape.clearScreen
            lines = Array(repeating: "", count: canvas.rows)
            size = now
        }
        for row in 0..<canvas.rows {
            let line = canvas.line(row, color: color)
            guard line != lines[row] else { continue }
            output += Escape.moveTo(row: row) + line + Escape.clearToEndOfLine
            lines[row] = line
        }
        return output.isEmpty ? "" : Escape.beginFrame + output + Escape.endFrame
    }
}
