import Foundation
import Synchronization

/// A way for the simulated network to misbehave for the URLs matching a pattern.
public struct FaultRule: Sendable, Equatable {
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
}
