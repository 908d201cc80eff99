import Foundation

/// A wall-clock timestamp in whole seconds since 1970, written as RFC 1123 (`Sun, 06 Nov 1994 08:49:37 GMT`).
public struct HTTPDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64

    /// The date `secondsSince1970` seconds after the epoch.
    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (lhs: HTTPDate, rhs: HTTPDate) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// The date `seconds` later (earlier when negative), held at the first or last date there is
    /// rather than wrapping: a server's `max-age` or `Retry-After` may be any number.
    public func adding(seconds: Int64) -> HTTPDate {
        HTTPDate(secondsSince1970: secondsSince1970.saturatingAdding(seconds))
    }

    /// The seconds from `earlier` to this date (negative when it is later), held at the ends of
    /// `Int64` rather than wrapping.
    public func seconds(since earlier: HTTPDate) -> Int64 {
        secondsSince1970.saturatingSubtracting(earlier.secondsSince1970)
    }

    /// The years whose days since 1970 count in seconds without overflow: every date there is.
    private static let years: ClosedRange<Int64> = -292_277_022_657...292_277_026_596

    /// The date of a day and time read from a text; nil past the first or last date there is.
    private static func reading(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> HTTPDate? {
        guard years.contains(year) else { return nil }
        let days = CivilDate.days(fromYear: year, month: month, day: day)
        // Counted from the midnight nearer 1970, so that the first day there is has one.
        let timeOfDay = hour * 3600 + minute * 60 + second
        let (midnight, overflow) = (days < 0 ? days + 1 : days).multipliedReportingOverflow(by: 86_400)
        let (seconds, past) = midnight.addingReportingOverflow(days < 0 ? timeOfDay - 86_400 : timeOfDay)
        return overflow || past ? nil : HTTPDate(secondsSince1970: seconds)
    }

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The RFC 1123 form, written byte by byte: `serve` writes one for every answer.
    public var description: String {
        // Floored, so that a date before 1970 has its time of day from midnight before it.
        var (days, secondsOfDay) = secondsSince1970.quotientAndRemainder(dividingBy: 86_400)
        if secondsOfDay < 0 {
            days -= 1
            secondsOfDay += 86_400
        }
        let (year, month, day) = CivilDate.civil(fromDays: days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        bytes.append(contentsOf: Self.weekdays[Int(((days % 7) + 7) % 7)].utf8)
        bytes.append(contentsOf: ", ".utf8)
        func two(_ n: Int64) {
            bytes.append(UInt8(ascii: "0") + UInt8(n / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(n % 10))
        }
        two(day)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: Self.months[Int(month) - 1].utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: String(year).utf8)
        bytes.append(UInt8(ascii: " "))
        two(secondsOfDay / 3600)
        bytes.append(UInt8(ascii: ":"))
        two(secondsOfDay / 60 % 60)
        bytes.append(UInt8(ascii: ":"))
        two(secondsOfDay % 60)
        bytes.append(contentsOf: " GMT".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses an RFC 1123 date (`Sun, 06 Nov 1994 08:49:37 GMT`); nil for anything else.
    public init?(rfc1123 text: String) {
        // Read byte by byte: every answer's `Last-Modified` is read. The form servers send has its
        // fields at fixed places; any other spacing is split into its fields.
        if let fixed = Self.fixedForm(text) {
            self = fixed
            return
        }
        let parts = text.utf8.split(separator: UInt8(ascii: " "))
        guard parts.count == 6, parts[5].elementsEqual("GMT".utf8), let day = ASCIIBytes.integer(parts[1]), let year = ASCIIBytes.integer(parts[3]),
              let monthIndex = Self.months.firstIndex(where: { $0.utf8.elementsEqual(parts[2]) }) else { return nil }
        let time = parts[4].split(separator: UInt8(ascii: ":")).compactMap(ASCIIBytes.integer)
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        guard let date = Self.reading(year: year, month: Int64(monthIndex + 1), day: day, hour: time[0], minute: time[1], second: time[2]) else { return nil }
        self = date
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` read at its fixed places; nil for a text of another shape.
    private static func fixedForm(_ text: String) -> HTTPDate? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29 else { return nil }
        func byte(_ index: Int, is expected: Unicode.Scalar) -> Bool { bytes[index] == UInt8(ascii: expected) }
        guard byte(4, is: " "), byte(7, is: " "), byte(11, is: " "), byte(16, is: " "), byte(19, is: ":"), byte(22, is: ":"), byte(25, is: " "),
              bytes[26...].elementsEqual("GMT".utf8), bytes[..<4].allSatisfy({ $0 != UInt8(ascii: " ") }),
              let day = ASCIIBytes.integer(bytes[5..<7]), let year = ASCIIBytes.integer(bytes[12..<16]),
              let hour = ASCIIBytes.integer(bytes[17..<19]), let minute = ASCIIBytes.integer(bytes[20..<22]), let second = ASCIIBytes.integer(bytes[23..<25]),
              let monthIndex = months.firstIndex(where: { $0.utf8.elementsEqual(bytes[8..<11]) }),
              (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        return reading(year: year, month: Int64(monthIndex + 1), day: day, hour: hour, minute: minute, second: second)
    }
}
