/// What a terminal shows after the bytes mailhost wrote: enough of ECMA-48 and xterm to follow
/// it — cursor positioning, erasing lines and the screen, the alternate screen, the cursor's
/// visibility — applied to a grid of cells. SGR sequences change nothing here but are counted;
/// anything else is kept in ``unknown``, so a test sees a sequence it did not expect. Synchronized
/// updates (mode 2026) are followed, so a reader can look only at whole frames.
struct TerminalModel: Sendable {
    private(set) var columns: Int
    private(set) var rows: Int
    private var main: [[Character]]
    private var alternate: [[Character]]
    private(set) var row = 0
    private(set) var column = 0
    private var savedCursor = (row: 0, column: 0)
    /// Whether the alternate screen is shown.
    private(set) var inAlternateScreen = false
    /// Whether the alternate screen was ever shown.
    private(set) var enteredAlternateScreen = false
    private(set) var cursorVisible = true
    /// Whether a synchronized update (DEC mode 2026) is open: what is drawn meanwhile is not shown
    /// until it ends.
    private(set) var synchronizing = false
    /// SGR sequences seen (`ESC [ … m`).
    private(set) var styleChanges = 0
    /// Sequences and control bytes the model does not know.
    private(set) var unknown: [String] = []
    /// Characters written past the right edge (a terminal would wrap them).
    private(set) var overflows = 0
    /// How many times ``marker`` arrived.
    private(set) var markers = 0
    /// The rows written or erased since ``markUntouched()``.
    private(set) var touchedRows: Set<Int> = []
    private var pending: [UInt8] = []

    /// A sequence no program sends, which a test writes to the terminal to know that everything
    /// before it has arrived.
    static let marker = "\u{1B}[7777z"

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        main = Self.blank(columns, rows)
        alternate = Self.blank(columns, rows)
    }

    /// The rows of the screen shown, trailing blanks cut.
    var lines: [String] {
        screen.map { line in
            var text = String(line)
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// The screen shown as text, a line per row.
    var text: String { lines.joined(separator: "\n") }

    /// Forgets which rows were written, so that ``touchedRows`` counts from now.
    mutating func markUntouched() {
        touchedRows = []
    }

    /// The terminal is now `columns` × `rows`: what fits stays, as in a terminal emulator.
    mutating func resize(columns: Int, rows: Int) {
        func fitted(_ grid: [[Character]]) -> [[Character]] {
            (0..<rows).map { row in
                (0..<columns).map { column in
                    row < grid.count && column < grid[row].count ? grid[row][column] : " "
                }
            }
        }
        main = fitted(main)
        alternate = fitted(alternate)
        self.columns = columns
        self.rows = rows
        row = min(row, rows - 1)
        column = min(column, columns - 1)
    }

    /// Applies what the terminal received; a sequence cut off at the end waits for the rest.
    mutating func feed(_ bytes: [UInt8]) {
        pending += bytes
        var index = 0
        while index < pending.count {
            guard let used = step(pending[index...]) else { break }
            index += used
        }
        pending.removeFirst(index)
    }

    // MARK: Private

    private var screen: [[Character]] {
        get { inAlternateScreen ? alternate : main }
        set {
            if inAlternateScreen { alternate = newValue } else { main = newValue }
        }
    }

    private static func blank(_ columns: Int, _ rows: Int) -> [[Character]] {
        Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// Applies one character or sequence at the start of `bytes`; how many bytes it took, or
    /// `nil` when it is not all there yet.
    private mutating func step(_ bytes: ArraySlice<UInt8>) -> Int? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B:
            guard bytes.count >= 2 else { return nil }
            let second = bytes[bytes.startIndex + 1]
            if second == UInt8(ascii: "[") { return controlSequence(bytes) }
            if second == UInt8(ascii: "]") {
                // An operating system command, to BEL or ST: never expected from mailhost.
                guard let end = bytes.firstIndex(where: { $0 == 0x07 || $0 == 0x9C }) else { return nil }
                unknown.append("OSC " + String(decoding: bytes[(bytes.startIndex + 2)..<end], as: UTF8.self))
                return end - bytes.startIndex + 1
            }
            unknown.append("ESC \(Character(Unicode.Scalar(second)))")
            return 2
        case 0x0D:
            column = 0
            return 1
        case 0x0A:
            row = min(row + 1, rows - 1)
            return 1
        case 0x08:
            column = max(column - 1, 0)
            return 1
        case 0x00..<0x20, 0x7F:
            unknown.append("control \(first)")
            return 1
        default:
            let length =
                first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes.prefix(length), as: UTF8.self)
            for character in text { put(character) }
            return length
        }
    }

    private mutating func put(_ character: Character) {
        guard column < columns else {
            overflows += 1
            return
        }
        screen[row][column] = character
        touchedRows.insert(row)
        column += 1
    }

    /// `ESC [ [?] params final`.
    private mutating func controlSequence(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex + 2
        var isPrivate = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "?") {
            isPrivate = true
            index += 1
        }
        let parametersStart = index
        while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return nil }
        let text = String(decoding: bytes[parametersStart..<index], as: UTF8.self)
        let parameters = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let final = Character(Unicode.Scalar(bytes[index]))
        func parameter(_ position: Int, _ fallback: Int) -> Int {
            position < parameters.count ? parameters[position] ?? fallback : fallback
        }
        switch (isPrivate, final) {
        case (false, "H"), (false, "f"):
            row = min(max(parameter(0, 1), 1), rows) - 1
            column = min(max(parameter(1, 1), 1), columns) - 1
        case (false, "K"):
            let range: Range<Int> =
                switch parameter(0, 0) {
                case 1: 0..<min(column + 1, columns)
                case 2: 0..<columns
                default: min(column, columns)..<columns
                }
            for erased in range { screen[row][erased] = " " }
            touchedRows.insert(row)
        case (false, "J"):
            let mode = parameter(0, 0)
            for erased in 0..<rows where mode == 2 || erased > row || (mode == 1 && erased < row) {
                screen[erased] = Array(repeating: " ", count: columns)
                touchedRows.insert(erased)
            }
            if mode == 0 {
                for erased in min(column, columns)..<columns { screen[row][erased] = " " }
                touchedRows.insert(row)
            }
        case (false, "m"):
            styleChanges += 1
        case (false, "z") where parameter(0, 0) == 7777:
            markers += 1
        case (true, "h") where parameter(0, 0) == 1049:
            savedCursor = (row, column)
            inAlternateScreen = true
            enteredAlternateScreen = true
            alternate = Self.blank(columns, rows)
        case (true, "l") where parameter(0, 0) == 1049:
            inAlternateScreen = false
            (row, column) = savedCursor
        case (true, "h") where parameter(0, 0) == 2026:
            synchronizing = true
        case (true, "l") where parameter(0, 0) == 2026:
            synchronizing = false
        case (true, "h") where parameter(0, 0) == 25:
            cursorVisible = true
        case (true, "l") where parameter(0, 0) == 25:
            cursorVisible = false
        default:
            unknown.append("CSI \(isPrivate ? "?" : "")\(text)\(final)")
        }
        return index - bytes.startIndex + 1
    }
}
