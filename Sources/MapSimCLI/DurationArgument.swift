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
}
