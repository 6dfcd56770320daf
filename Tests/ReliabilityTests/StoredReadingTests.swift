import StateStore
import Testing

/// Rows are read along fast paths (a minified scan of each value, a whole stack checked in place,
/// strings passed over eight bytes at a time) that must decide exactly as the general reader does:
/// `FuzzChecks.storedReading` on inputs made of JSON's pieces, valid and not, and on values the
/// fast paths must take themselves.
struct StoredReadingTests {
    /// Pieces that make valid values, nearly valid ones and garbage when strung together.
    static let pieces: [String] = [
        "{", "}", "[", "]", ",", ":", "\"", "\"a\"", "\"k\":", "\\", "\\\"", "\\u0041", "\\uD800", "\\x",
        "0", "-", "1", "12", ".", "5", "e", "E+", "-3", "01", "true", "tru", "false", "null", "nul", " ", "\n",
        "\t", "\u{1}", "\u{7F}", "é", "😀", "\u{FF}", "[1,]", "{\"a\":1,}", "\"\u{1F}\"", "        ",
        "\"abcdefghijklmnop\"", "\"abcdefg\\\"hijklmnop\"",
    ]

    @Test func randomPiecesReadAlikeAlongTheFastAndTheGeneralPaths() {
        var random = SeededRandom(seed: 16)
        for _ in 0..<3_000 {
            let count = Int(random.next() % 12) + 1
            let text = (0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            let problem = FuzzChecks.storedReading(Array(text.utf8))
            #expect(problem == nil, "\(problem ?? "")")
            if problem != nil { return }
        }
    }

    /// A run of digits of each length around a word's and two words' (the lengths where a scan
    /// eight bytes at a time would change step), ended by each byte there is, is read alike along
    /// both paths.
    @Test func runsOfDigitsEndedByEveryByteReadAlike() {
        for count in [1, 2, 6, 7, 8, 9, 15, 16, 17] {
            let digits = (0..<count).map { UInt8(ascii: "0") + UInt8(($0 + 1) % 10) }
            for end in UInt8.min...UInt8.max {
                for value in [
                    digits + [end], Array("[".utf8) + digits + [end] + Array("]".utf8), digits + [end, 0x31],
                ] {
                    let problem = FuzzChecks.storedReading(value)
                    #expect(problem == nil, "\(value): \(problem ?? "")")
                    if problem != nil { return }
                }
            }
            let ends = StoredColumn.valueEnds(digits + Array(",".utf8))
            #expect(ends.minified == count && ends.general?.end == count, "the number ends before the comma")
            #expect(StoredColumn.valueEnds(Array("[".utf8) + digits + Array("]".utf8)).minified == count + 2)
        }
    }

    @Test(arguments: [
        "0", "-0", "12.5e-3", "1E+5", "true", "false", "null", #""""#, #""a\"b\\c\u00e9""#, #""é😀""#,
        #"{"id":480370,"thread":48037}"#, #"[1,[2,[3,{}]],[]]"#, #"{"a":{"b":{"c":[true,null]}}}"#,
        #""a long string of more than eight bytes, eight at a time""#,
        String(repeating: "[", count: 64) + String(repeating: "]", count: 64),
    ])
    func minifiedValuesTakeTheFastScan(_ value: String) {
        let ends = StoredColumn.valueEnds(Array(value.utf8))
        #expect(ends.minified == value.utf8.count)
        // Sure of ASCII exactly where every byte is and no string has an escape (which leaves its
        // bytes to a check).
        #expect(ends.sawOnlyASCII == value.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\\") })
        #expect(FuzzChecks.storedReading(Array(value.utf8)) == nil)
    }

    @Test(arguments: [
        "[ 1]", "{\"a\": 1}", "[01]", "1.", "-", "tru", "[1,]", "{\"a\":1,}", "\"\u{1}\"", "\"\\x\"", "[",
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
    ])
    func anythingElseIsLeftToTheGeneralScan(_ value: String) {
        #expect(StoredColumn.valueEnds(Array(value.utf8)).minified == nil)
        #expect(FuzzChecks.storedReading(Array(value.utf8)) == nil)
    }
}
