import Foundation
import StateStore
import Testing

struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_796_017_514_123, "2026-11-30T05:45:14.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func formatsAndParsesRFC3339(_ milliseconds: Int64, _ text: String) {
        let timestamp = Timestamp(millisecondsSince1970: milliseconds)
        #expect(timestamp.description == text)
        #expect(Timestamp(rfc3339: text) == timestamp)
    }

    @Test func agreesWithFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for _ in 0..<200 {
            let seconds = Int64.random(in: 0..<4_102_444_800)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!)
            #expect(Timestamp(millisecondsSince1970: seconds * 1000).description == expected)
        }
    }

    @Test(arguments: [
        "", "2026-11-30", "2026-13-01T00:00:00Z", "2026-11-30T25:00:00Z", "2026-11-30T05:45:14.123+01:00",
    ])
    func refusesOtherForms(_ text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }
}
