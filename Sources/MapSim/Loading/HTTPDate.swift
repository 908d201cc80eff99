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
        let (year, month, day) = CivilDate.civil(fromDays: days)
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
        let days = CivilDate.days(fromYear: year, month: Int64(monthIndex + 1), day: day)
        self.init(secondsSince1970: days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2])
    }
}
