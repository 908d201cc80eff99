import MapSim

/// ISO 8601 dates and times with a time zone, to and from microseconds since 1970 (UTC), without
/// Foundation's formatters: the same text gives the same instant on every machine.
public enum ISO8601Timestamp {
    /// `2026-11-23T10:15:00Z`, `2026-11-23T10:15:00.250+01:00`, or nil.
    public static func microseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + digits)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ characters: Set<UInt8>) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect([0x2D]), let month = number(2), expect([0x2D]), let day = number(2), expect([0x54, 0x74, 0x20]),
              let hour = number(2), expect([0x3A]), let minute = number(2), expect([0x3A]), let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var fraction: Int64 = 0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var scale: Int64 = 100_000
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Int64(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if expect([0x5A, 0x7A]) {
            offset = 0
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let hours = number(2), expect([0x3A]), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 60 + minutes)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = CivilDate.days(fromYear: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offset * 60)
        return seconds * 1_000_000 + fraction
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ` (the fraction only when there is one).
    public static func string(_ microseconds: Int64) -> String {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let fraction = microseconds - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let remainder = seconds - days * 86_400
        let (year, month, day) = CivilDate.civil(fromDays: days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(year)-\(two(month))-\(two(day))T\(two(remainder / 3_600)):\(two(remainder % 3_600 / 60)):\(two(remainder % 60))"
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }
}
