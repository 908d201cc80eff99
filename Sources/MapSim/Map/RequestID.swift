/// Identifies one request a map made, in the order they were made.
public struct RequestID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The request's number; later requests have larger numbers.
    public let value: Int

    /// The request numbered `value`.
    public init(value: Int) {
        self.value = value
    }

    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.value < rhs.value }
    public var description: String { "#\(value)" }
}
