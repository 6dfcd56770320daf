#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A moment in UTC with millisecond precision, written as RFC 3339 (`2026-11-30T05:45:14.123Z`).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Int64

    /// The moment `millisecondsSince1970` milliseconds after 1970-01-01T00:00:00Z (before it, when negative).
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// The system's real-time clock, now (`clock_gettime`: no Foundation in the engine).
    public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(millisecondsSince1970: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// RFC 3339 in UTC with milliseconds.
    public var description: String {
        var bytes: [UInt8] = []
        appendRFC3339(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``description``'s text without building a string: `list` writes one per row.
    func appendRFC3339(to bytes: inout [UInt8]) {
        let (days, milliseconds) = millisecondsSince1970.floorDivided(by: 86_400_000)
        let (year, month, day) = Self.civil(fromDays: days)
        let seconds = milliseconds / 1000
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var value = value
            if value >= divisor * 10 {  // years past 9999 keep all their digits
                bytes.append(contentsOf: String(value).utf8)
                return
            }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor))
                value %= divisor
                divisor /= 10
            }
        }
        if year < 0 {
            bytes.append(contentsOf: String(year).utf8)
        } else {
            digits(year, 4)
        }
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(seconds / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds % 60, 2)
        bytes.append(UInt8(ascii: "."))
        digits(milliseconds % 1000, 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Parses the form ``description`` writes: `YYYY-MM-DDTHH:MM:SS.mmmZ` (fraction optional).
    public init?(rfc3339 text: String) {
        let utf8 = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= utf8.count else { return nil }
            var value: Int64 = 0
            for byte in utf8[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard utf8.count >= 20, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: "t"), utf8[13] == UInt8(ascii: ":"),
            utf8[16] == UInt8(ascii: ":"), utf8.last == UInt8(ascii: "Z") || utf8.last == UInt8(ascii: "z"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var milliseconds: Int64 = 0
        if utf8.count > 20 {
            // Digits past the third are checked, not added up: a long fraction would overflow.
            let digits = utf8.count - 21
            guard utf8[19] == UInt8(ascii: "."), digits > 0,
                utf8[20..<(utf8.count - 1)].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let fraction = number(20..<(20 + min(digits, 3)))
            else {
                return nil
            }
            milliseconds = fraction * [100, 10, 1][min(digits, 3) - 1]
        }
        let days = Self.days(fromCivil: year, month, day)
        millisecondsSince1970 = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milliseconds
    }

    // Howard Hinnant's civil-calendar algorithms (proleptic Gregorian), exact for any Int64 day.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Timestamp: Codable {
    /// Reads the RFC 3339 string ``description`` writes.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let timestamp = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an RFC 3339 UTC time: \(text)"))
        }
        self = timestamp
    }

    /// Writes ``description``, an RFC 3339 string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension JSONWriter {
    /// A timestamp as an RFC 3339 string, written in place.
    ///
    /// Package surface: statectl writes times into its `--json` output with it, as the store's own
    /// JSON has them.
    package mutating func timestamp(_ value: Timestamp) {
        string(appendingPlain: value.appendRFC3339(to:))
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
