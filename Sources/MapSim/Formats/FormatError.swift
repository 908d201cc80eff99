/// A resource whose bytes are not what its kind requires (a truncated tile, a broken sprite, ...).
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, and where in the data.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
