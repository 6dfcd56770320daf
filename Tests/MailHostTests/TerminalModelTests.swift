import Testing

/// The tests read mailhost's screen through ``TerminalModel``; these pin what it does with each
/// sequence, so that a passing mailhost test means what the screen would show.
struct TerminalModelTests {
    func model(_ text: String, columns: Int = 10, rows: Int = 3) -> TerminalModel {
        var model = TerminalModel(columns: columns, rows: rows)
        model.feed(Array(text.utf8))
        return model
    }

    @Test func positionsTheCursorAndErasesToTheEndOfTheLine() {
        let screen = model("\u{1B}[2;3Habcdef\u{1B}[2;5H\u{1B}[K\u{1B}[1;1Hx")
        #expect(screen.lines == ["x", "  ab", ""])
        #expect(screen.unknown.isEmpty)
    }

    @Test func clearsTheScreenAndCountsStylesWithoutDrawingThem() {
        let screen = model("one\u{1B}[2;1Htwo\u{1B}[H\u{1B}[2J\u{1B}[0;1mbold\u{1B}[0m")
        #expect(screen.lines == ["bold", "", ""])
        #expect(screen.styleChanges == 2)
    }

    @Test func theAlternateScreenKeepsTheMainScreenAndTheCursor() {
        var screen = model("shell$ \u{1B}[?1049h\u{1B}[?25l\u{1B}[Happ")
        #expect(screen.inAlternateScreen)
        #expect(!screen.cursorVisible)
        #expect(screen.lines == ["app", "", ""])
        screen.feed(Array("\u{1B}[?25h\u{1B}[?1049l".utf8))
        #expect(!screen.inAlternateScreen)
        #expect(screen.enteredAlternateScreen)
        #expect(screen.cursorVisible)
        #expect(screen.lines == ["shell$", "", ""])
        #expect((screen.row, screen.column) == (0, 7), "the cursor is where the shell left it")
    }

    @Test func aSequenceOrCharacterCutBetweenReadsWaitsForTheRest() {
        var screen = TerminalModel(columns: 10, rows: 2)
        let bytes = Array("\u{1B}[2;2H›".utf8)
        for byte in bytes { screen.feed([byte]) }
        #expect(screen.lines == ["", " ›"])
    }

    @Test func unknownSequencesAndCharactersPastTheEdgeAreReported() {
        let screen = model("\u{1B}]0;title\u{7}0123456789ab\u{1B}[5n", columns: 10, rows: 1)
        #expect(screen.unknown == ["OSC 0;title", "CSI 5n"])
        #expect(screen.lines == ["0123456789"])
        #expect(screen.overflows == 2)
    }

    @Test func touchedRowsCountFromTheMark() {
        var screen = model("\u{1B}[1;1Ha\u{1B}[2;1Hb")
        #expect(screen.touchedRows == [0, 1])
        screen.markUntouched()
        screen.feed(Array("\u{1B}[3;1H\u{1B}[K".utf8))
        #expect(screen.touchedRows == [2])
    }

    @Test func aSynchronizedUpdateIsOpenUntilItEnds() {
        var screen = model("\u{1B}[?2026h\u{1B}[Hhalf")
        #expect(screen.synchronizing)
        screen.feed(Array(" a frame\u{1B}[?2026l".utf8))
        #expect(!screen.synchronizing)
        #expect(screen.lines.first == "half a fra")
        #expect(screen.overflows == 2)
    }

    @Test func aResizeKeepsWhatFits() {
        var screen = model("abcdef\u{1B}[2;1Hxyz", columns: 6, rows: 2)
        screen.resize(columns: 3, rows: 3)
        #expect(screen.lines == ["abc", "xyz", ""])
    }
}
