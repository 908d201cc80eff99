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

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The RFC 1123 form.
    public var description: String {
        let days = Int64((Double(secondsSince1970) / 86_400).rounded(.down))
        let secondsOfDay = secondsSince1970 - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        let weekday = Self.weekdays[Int(((days % 7) + 7) % 7)]
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekday), \(two(day)) \(Self.months[Int(month) - 1]) \(year) \(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60)) GMT"
    }

    /// Parses an RFC 1123 date (`Sun, 06 Nov 1994 08:49:37 GMT`); nil for anything else.
    public init?(rfc1123 text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int64(parts[1]), let year = Int64(parts[3]),
              let monthIndex = Self.months.firstIndex(of: String(parts[2])) else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int64($0) }
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        let days = Self.days(fromYear: year, month: Int64(monthIndex + 1), day: day)
        self.init(secondsSince1970: days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2])
    }

    // Howard Hinnant's days-from-civil algorithms (public domain).
    private static func days(fromYear y: Int64, month m: Int64, day d: Int64) -> Int64 {
        let year = m <= 2 ? y - 1 : y
        let era = (year >= 0 ? year : year - 399) / 400
        let yoe = year - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays z: Int64) -> (Int64, Int64, Int64) {
        let shifted = z + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let doe = shifted - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
