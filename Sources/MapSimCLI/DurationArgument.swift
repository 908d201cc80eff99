import ArgumentParser
import MapSimKit

/// A duration on the command line: `250ms`, `1.5s`, `2min`, `1h`, or a bare number of seconds.
struct DurationArgument: ExpressibleByArgument {
    var time: SimTime

    init?(argument: String) {
        guard let time = SimTime(parsing: argument) else { return nil }
        self.time = time
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// The default as it is written on the command line: whole hours, else seconds, else
    /// milliseconds, else microseconds — `1h`, `60s`, `10ms`, `0s`.
    var defaultValueDescription: String {
        let microseconds = time.microseconds
        for (unit, size) in [("h", Int64(3_600_000_000)), ("s", 1_000_000), ("ms", 1_000)] where microseconds % size == 0 && (microseconds != 0 || unit == "s") {
            return "\(microseconds / size)\(unit)"
        }
        return "\(microseconds)us"
    }
}
