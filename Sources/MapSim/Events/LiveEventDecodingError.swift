/// A live event's data object lacks a key, or has it with the wrong type.
public struct LiveEventDecodingError: Error, Sendable, CustomStringConvertible {
    /// The key.
    public var key: String

    public var description: String { "missing or invalid \"\(key)\"" }
}
