import ArgumentParser
import MapSimKit

/// `PATTERN=EFFECT[xTIMES]` on the command line: a fault rule of the simulated network, for the URLs
/// matching PATTERN (`*` matches anything): an HTTP status (`503`), `drop` (the connection is
/// dropped), `truncate` (half the body comes) or `delay:MS`; `xTIMES` limits it to the first TIMES
/// requests of each URL.
struct FaultArgument: ExpressibleByArgument {
    var rule: FaultRule

    init?(argument: String) {
        guard let equals = argument.lastIndex(of: "="), equals != argument.startIndex else { return nil }
        let pattern = String(argument[..<equals])
        var effectText = Substring(argument[argument.index(after: equals)...])
        var times: Int?
        if let x = effectText.lastIndex(of: "x"), let count = Int(effectText[effectText.index(after: x)...]), count > 0 {
            times = count
            effectText = effectText[..<x]
        }
        let effect: FaultRule.Effect
        switch effectText {
        case "drop": effect = .dropConnection
        case "truncate": effect = .truncateBody
        case let text where text.hasPrefix("delay:"):
            guard let milliseconds = Int64(text.dropFirst(6)), (0...3_600_000).contains(milliseconds) else { return nil }
            effect = .delay(.milliseconds(milliseconds))
        default:
            guard let status = Int(effectText), (100...599).contains(status) else { return nil }
            effect = .status(status)
        }
        rule = FaultRule(pattern: URLPattern(pattern), effect: effect, times: times)
    }
}
