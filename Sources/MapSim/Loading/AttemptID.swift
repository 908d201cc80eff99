/// Identifies one attempt at answering a request from one backend.
public struct AttemptID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The attempt's number; later attempts have larger numbers.
    public let value: Int

    public static func < (lhs: AttemptID, rhs: AttemptID) -> Bool { lhs.value < rhs.value }
    public var description: String { "attempt \(value)" }
}
