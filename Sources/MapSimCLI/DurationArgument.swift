import ArgumentParser
import MapSimKit

/// A duration on the command line: `500ms`, `10s`, `2m`, `1h`, or a number of seconds.
struct DurationArgument: ExpressibleByArgument {
    var time: SimTime

    init?(argument: String) {
        let units: [(suffix: String, microseconds: Double)] = [("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000)]
        var number = Substring(argument)
        var scale = 1_000_000.0
        for unit in units where argument.hasSuffix(unit.suffix) {
            number = argument.dropLast(unit.suffix.count)
            scale = unit.microseconds
            break
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 86_400_000_000 * 365 else { return nil }
        time = SimTime(microseconds: Int64((value * scale).rounded()))
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
