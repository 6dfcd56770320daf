/// A table for people: a header line naming the columns, then one aligned row per record.
///
/// Rows stream through it. The first ``sampleSize`` rows are held back to measure the column
/// widths; from then on each row is written as it comes, with those widths (a later, wider cell
/// pushes its own row out of line rather than making anyone wait). So memory stays flat for any
/// number of rows, the rows come from one query (one consistent snapshot), and a short listing
/// is aligned exactly.
final class Table {
    struct Column {
        enum Alignment {
            case left
            case right
        }

        let title: String
        var alignment: Alignment = .left
        /// Longer cells are cut, ending in `…`; `nil` for no limit.
        var maximumWidth: Int? = nil
    }

    let columns: [Column]
    let sampleSize: Int
    private let output: OutputBuffer
    private let style: Style
    private var held: [[String]] = []
    private var widths: [Int]?
    private(set) var rowCount = 0
    // Reused for every row written.
    private var lineBytes: [UInt8] = []

    init(_ columns: [Column], output: OutputBuffer, style: Style, sampleSize: Int = 1000) {
        self.columns = columns
        self.output = output
        self.style = style
        self.sampleSize = sampleSize
    }

    /// Adds a row: one cell per column. Control characters in a cell are shown escaped.
    func add(_ cells: [String]) {
        var cells = cells.map(\.escapingControlCharacters)
        for (index, column) in columns.enumerated() {
            if let limit = column.maximumWidth { cells[index] = TextWidth.truncate(cells[index], to: limit) }
        }
        rowCount += 1
        if let widths {
            write(cells, widths)
        } else {
            held.append(cells)
            if held.count >= sampleSize { release() }
        }
    }

    /// Writes the rows held back. With no rows at all nothing is written, not even the header.
    func finish() {
        if widths == nil, !held.isEmpty { release() }
    }

    private func release() {
        var widths = columns.map { TextWidth.of($0.title) }
        for row in held {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TextWidth.of(cell)) }
        }
        self.widths = widths
        output.write(style.bold(line(columns.map(\.title), widths)))
        output.write("\n")
        for row in held { write(row, widths) }
        held = []
    }

    private func write(_ cells: [String], _ widths: [Int]) {
        line(cells, widths, into: &lineBytes)
        lineBytes.append(UInt8(ascii: "\n"))
        output.write(lineBytes)
    }

    /// Cells padded to their column's width, two spaces apart; no trailing blanks.
    private func line(_ cells: [String], _ widths: [Int]) -> String {
        var bytes: [UInt8] = []
        line(cells, widths, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func line(_ cells: [String], _ widths: [Int], into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        for (index, cell) in cells.enumerated() {
            let padding = max(0, widths[index] - TextWidth.of(cell))
            let isLast = index == cells.count - 1
            switch columns[index].alignment {
            case .left:
                bytes.append(contentsOf: cell.utf8)
                if !isLast { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding)) }
            case .right:
                bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding))
                bytes.append(contentsOf: cell.utf8)
            }
            if !isLast { bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
        }
    }
}
