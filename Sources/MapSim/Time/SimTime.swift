/// A point or span of simulated time: an integer count of microseconds since the start of the run.
///
/// Integer microseconds keep every computation exact, so the same run gives the same times everywhere.
public struct SimTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since the start of the run (or the length of a span).
    public var microseconds: Int64

    /// A time of `microseconds` µs.
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// The start of the run.
    public static let zero = SimTime(microseconds: 0)

    /// The latest time there is: "no limit" for a run.
    public static let max = SimTime(microseconds: .max)

    /// A span of `value` milliseconds.
    public static func milliseconds(_ value: Int64) -> SimTime { SimTime(microseconds: value * 1_000) }

    /// A span of `value` seconds, rounded to the nearest microsecond; held at `max` (or its
    /// negative) beyond what microseconds count, and zero for NaN.
    public static func seconds(_ value: Double) -> SimTime {
        let microseconds = (value * 1_000_000).rounded()
        guard !microseconds.isNaN else { return .zero }
        guard microseconds < 0x1p63 else { return .max }
        return SimTime(microseconds: microseconds > -0x1p63 ? Int64(microseconds) : .min)
    }

    /// The span of `duration` (a clock's measure), to the microsecond below.
    public init(_ duration: Duration) {
        self.init(microseconds: duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000)
    }

    /// The time in seconds, for display.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (lhs: SimTime, rhs: SimTime) -> Bool { lhs.microseconds < rhs.microseconds }
    /// The sum, held at the ends of the range: a time past `max` is still "never".
    public static func + (lhs: SimTime, rhs: SimTime) -> SimTime {
        SimTime(microseconds: lhs.microseconds.saturatingAdding(rhs.microseconds))
    }

    /// The difference, held at the ends of the range.
    public static func - (lhs: SimTime, rhs: SimTime) -> SimTime {
        SimTime(microseconds: lhs.microseconds.saturatingSubtracting(rhs.microseconds))
    }

    /// The time as milliseconds with three decimals, e.g. `316.667 ms`.
    public var description: String {
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000)
        return "\(sign)\(magnitude / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
    }
}
