import Foundation

/// RFC 3339 date-times as app receipts write them (`2024-01-01T00:00:00Z`, possibly with fractional seconds or a
/// numeric offset), parsed straight from bytes. `DateFormatter` and `ISO8601FormatStyle` cost microseconds a call,
/// which is more than a whole receipt should.
///
/// Accepted: `YYYY-MM-DD`, then `T`, `t` or a space, then `hh:mm:ss`, an optional `.` and one or more digits (the
/// first nine count), then `Z`, `z` or `±hh:mm`. Fields are range-checked (the day against its month, leap years
/// included); a leap second `60` is accepted and lands on the next minute. Anything else is `nil`.
enum RFC3339 {
    /// The instant `bytes` names, or `nil` when they are not an RFC 3339 date-time.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        let count = bytes.count
        guard count >= 20 else { return nil }

        /// The decimal number in `width` digits at `start`, or -1.
        @inline(__always) func number(_ start: Int, _ width: Int) -> Int {
            var value = 0
            for index in start..<start + width {
                let digit = Int(bytes[index]) &- 48
                guard digit >= 0, digit <= 9 else { return -1 }
                value = value * 10 + digit
            }
            return value
        }

        let year = number(0, 4)
        let month = number(5, 2)
        let day = number(8, 2)
        let hour = number(11, 2)
        let minute = number(14, 2)
        let second = number(17, 2)
        let separator = bytes[10]
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            year >= 0, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }

        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            var value = 0
            while index < count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if digits < 9 {
                    value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    digits += 1
                }
                index += 1
            }
            guard digits > 0 else { return nil }
            fraction = Double(value) / powersOfTen[digits]
        }

        guard index < count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard count - index >= 6, bytes[index + 3] == UInt8(ascii: ":") else { return nil }
            let hours = number(index + 1, 2)
            let minutes = number(index + 4, 2)
            guard (0...23).contains(hours), (0...59).contains(minutes) else { return nil }
            offset = (hours * 60 + minutes) * 60
            if bytes[index] == UInt8(ascii: "-") { offset = -offset }
            index += 6
        default:
            return nil
        }
        guard index == count else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `parse(_:)` over a string's UTF-8.
    static func parse(_ string: String) -> Date? {
        var string = string
        return string.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date of years 0...9999: count whole 400-year cycles of
    /// 146,097 days in a calendar whose years start on 1 March, so that the leap day ends the year.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let cycle = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfCycle = marchYear - cycle * 400
        let monthFromMarch = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        // 719,468 days separate 0000-03-01 from 1970-01-01.
        return cycle * 146_097 + dayOfCycle - 719_468
    }
}
