import ArgumentParser
import MapSimKit

/// `PATTERN=EFFECT[xTIMES]` on the command line: a fault rule of the simulated network
/// (`FaultRule(commandLine:)` says how it reads).
struct FaultArgument: ExpressibleByArgument {
    var rule: FaultRule

    init?(argument: String) {
        guard let rule = FaultRule(commandLine: argument) else { return nil }
        self.rule = rule
    }
}
