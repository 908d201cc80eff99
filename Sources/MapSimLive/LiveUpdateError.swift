/// A payload that is not a live update, with its topic and why.
public struct LiveUpdateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var topic: String
    public var reason: String

    public var description: String { "invalid update on \(topic): \(reason)" }
}
