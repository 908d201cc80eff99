/// Durations as people write and read them: `800ms`, `2s`, `1.5m`; `333.3 ms`, `2 s`.
extension SimTime {
    /// The span `text` gives: a number with a unit — `us`, `ms`, `s`, `m`, `h` — or a bare number of
    /// seconds: `800ms`, `2s`, `1.5 s`, `10`. Nil for anything else, a negative span or one of a year or more.
    public init?(parsing text: String) {
        let trimmed = text.filter { $0 != " " }
        let units: [(suffix: String, microseconds: Double)] = [("us", 1), ("µs", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000)]
        let unit = units.first { trimmed.hasSuffix($0.suffix) } ?? ("", 1_000_000)
        let number = trimmed.dropLast(unit.suffix.count)
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number), value.isFinite,
              value * unit.microseconds < 365 * 86_400_000_000 else { return nil }
        self.init(microseconds: Int64((value * unit.microseconds).rounded()))
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
