/// Durations as people write and read them: `800ms`, `2s`, `2min`, `1.5 h`; `333.3 ms`, `2 s`.
extension SimTime {
    /// The units a duration may be written in, longest name first (so `ms` is not read as `s`).
    private static let units: [(names: [String], microseconds: Double)] = [
        (["microseconds", "microsecond", "us", "µs"], 1),
        (["milliseconds", "millisecond", "msec", "ms"], 1_000),
        (["seconds", "second", "secs", "sec", "s"], 1_000_000),
        (["minutes", "minute", "mins", "min", "m"], 60_000_000),
        (["hours", "hour", "hrs", "hr", "h"], 3_600_000_000),
    ]

    /// The span `text` gives: a number with a unit, or a bare number of `bareUnit` (seconds unless
    /// a format says otherwise) — `250ms`, `1.5s`, `2min`, `1 h`, `90`. Units: `us`/`µs`, `ms`,
    /// `s`/`sec`/`seconds`, `m`/`min`/`minutes`, `h`/`hr`/`hours`. Nil for anything else, a
    /// negative span or one of a year or more.
    public init?(parsing text: String, bareUnit: SimTime = .seconds(1)) {
        let trimmed = text.filter { $0 != " " }.lowercased()
        var multiplier = Double(bareUnit.microseconds)
        var number = Substring(trimmed)
        let named = Self.units.flatMap { unit in unit.names.map { (name: $0, microseconds: unit.microseconds) } }
            .sorted { $0.name.count > $1.name.count }
        if let unit = named.first(where: { trimmed.hasSuffix($0.name) }) {
            multiplier = unit.microseconds
            number = trimmed.dropLast(unit.name.count)
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number), value.isFinite,
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
