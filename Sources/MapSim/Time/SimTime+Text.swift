/// Durations as people write and read them: `800ms`, `2s`, `2min`, `1.5 h`; `333.3 ms`, `2 s`.
extension SimTime {
    /// A name a duration's unit may be written with, as bytes, and the unit's length.
    private struct UnitName {
        let bytes: [UInt8]
        let microseconds: Double

        init(_ name: String, _ microseconds: Double) {
            bytes = Array(name.utf8)
            self.microseconds = microseconds
        }
    }

    /// Every unit's names, longest first (so `ms` is not read as `s`), written in that order: sorted
    /// as the process started, the list showed in the profile of every `load`.
    private static let unitNames: [UnitName] = [
        UnitName("microseconds", 1),
        UnitName("milliseconds", 1_000),
        UnitName("microsecond", 1),
        UnitName("millisecond", 1_000),
        UnitName("seconds", 1_000_000),
        UnitName("minutes", 60_000_000),
        UnitName("second", 1_000_000),
        UnitName("minute", 60_000_000),
        UnitName("hours", 3_600_000_000),
        UnitName("msec", 1_000),
        UnitName("secs", 1_000_000),
        UnitName("mins", 60_000_000),
        UnitName("hour", 3_600_000_000),
        UnitName("µs", 1),
        UnitName("sec", 1_000_000),
        UnitName("min", 60_000_000),
        UnitName("hrs", 3_600_000_000),
        UnitName("us", 1),
        UnitName("ms", 1_000),
        UnitName("hr", 3_600_000_000),
        UnitName("s", 1_000_000),
        UnitName("m", 60_000_000),
        UnitName("h", 3_600_000_000)
    ]

    /// The span `text` gives: a number with a unit, or a bare number of `bareUnit` (seconds unless
    /// a format says otherwise) — `250ms`, `1.5s`, `2min`, `1 h`, `90`. Units: `us`/`µs`, `ms`,
    /// `s`/`sec`/`seconds`, `m`/`min`/`minutes`, `h`/`hr`/`hours`, in any case. Nil for anything
    /// else, a negative span or one of a year or more.
    public init?(parsing text: String, bareUnit: SimTime = .seconds(1)) {
        // Spaces dropped and ASCII letters lowered: every unit's name is ASCII but `µ`, which has no case.
        var bytes: [UInt8] = []
        for byte in text.utf8 where byte != UInt8(ascii: " ") {
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        var multiplier = Double(bareUnit.microseconds)
        var numberEnd = bytes.count
        if let unit = Self.unitNames.first(where: { bytes.count >= $0.bytes.count && bytes.suffix($0.bytes.count).elementsEqual($0.bytes) }) {
            multiplier = unit.microseconds
            numberEnd -= unit.bytes.count
        }
        let number = bytes[..<numberEnd]
        guard !number.isEmpty, number.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }),
              let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite,
              value * multiplier < 365 * 86_400_000_000 else { return nil }
        self.init(microseconds: Int64((value * multiplier).rounded()))
    }

    /// The span in the unit that reads best, without needless decimals: `100 ms`, `333.3 ms`,
    /// `2 s`, `2.5 s`, `0.25 ms`.
    public var shortDescription: String {
        let magnitude = microseconds.magnitude
        let sign = microseconds < 0 ? "-" : ""
        if magnitude >= 1_000_000 { return sign + Self.trimmed(Double(magnitude) / 1_000_000, decimals: 3) + " s" }
        if magnitude >= 1_000 { return sign + Self.trimmed(Double(magnitude) / 1_000, decimals: 1) + " ms" }
        return sign + Self.trimmed(Double(magnitude) / 1_000, decimals: 3) + " ms"
    }

    /// `value` with at most `decimals` decimals, trailing zeros dropped.
    private static func trimmed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let units = Int64((value * scale).rounded())
        let whole = units / Int64(scale)
        var fraction = String(units % Int64(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }
}
