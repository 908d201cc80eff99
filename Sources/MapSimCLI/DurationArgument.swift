import ArgumentParser
import MapSimKit

/// A duration on the command line: `500ms`, `10s`, `2m`, `1h`, or a number of seconds.
struct DurationArgument: ExpressibleByArgument {
    var time: SimTime

    init?(argument: String) {
        guard let time = SimTime(parsing: argument) else { return nil }
        self.time = time
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
