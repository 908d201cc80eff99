import Foundation
import Synchronization

/// A way for the simulated network to misbehave for the URLs matching a pattern.
public struct FaultRule: Sendable, Equatable, CustomStringConvertible {
    /// What happens.
    public enum Effect: Sendable, Equatable {
        /// Answer with this HTTP status and headers (and no body).
        case status(Int, headers: [(name: String, value: String)] = [])
        /// Drop the connection: a `connection` error.
        case dropConnection
        /// Send only the first half of the body.
        case truncateBody
        /// Answer normally, this much later.
        case delay(SimTime)

        public static func == (lhs: Effect, rhs: Effect) -> Bool {
            switch (lhs, rhs) {
            case let (.status(a, x), .status(b, y)): a == b && x.map(\.name) == y.map(\.name) && x.map(\.value) == y.map(\.value)
            case (.dropConnection, .dropConnection), (.truncateBody, .truncateBody): true
            case let (.delay(a), .delay(b)): a == b
            default: false
            }
        }
    }

    /// The URLs it applies to.
    public var pattern: URLPattern
    /// What happens.
    public var effect: Effect
    /// How many requests of each URL it applies to; nil for all of them.
    public var times: Int?

    /// A rule.
    public init(pattern: URLPattern, effect: Effect, times: Int? = nil) {
        self.pattern = pattern
        self.effect = effect
        self.times = times
    }

    /// The rule as the command line writes it, `PATTERN=EFFECT[xTIMES]` (a status's headers after it).
    public var description: String {
        let effectText: String
        switch effect {
        case .status(let code, let headers):
            effectText = "\(code)" + (headers.isEmpty ? "" : " (" + headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + ")")
        case .dropConnection: effectText = "drop"
        case .truncateBody: effectText = "truncate"
        case .delay(let delay): effectText = "delay:\(delay.microseconds / 1000)"
        }
        return "\(pattern.text)=\(effectText)" + (times.map { "x\($0)" } ?? "")
    }

    /// A rule as written on the command line, `PATTERN=EFFECT[xTIMES]`: the URLs matching PATTERN
    /// (`*` matches anything) get an HTTP status (`503`), `drop` (the connection is dropped),
    /// `truncate` (half the body comes) or `delay:MS`; `xTIMES` limits it to the first TIMES requests
    /// of each URL. Nil when it is not one.
    public init?(commandLine argument: String) {
        guard let equals = argument.lastIndex(of: "="), equals != argument.startIndex else { return nil }
        var effectText = Substring(argument[argument.index(after: equals)...])
        var times: Int?
        if let x = effectText.lastIndex(of: "x"), let count = Int(effectText[effectText.index(after: x)...]), count > 0 {
            times = count
            effectText = effectText[..<x]
        }
        let effect: Effect
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
        self.init(pattern: URLPattern(String(argument[..<equals])), effect: effect, times: times)
    }
}
