/// An event's data object (live, dynamic-entity or content) lacks a key, or has it with the wrong type.
public struct EventPayloadError: Error, Sendable, CustomStringConvertible {
    /// The key.
    public var key: String

    public var description: String { "missing or invalid \"\(key)\"" }
}
