/// A map API call that cannot be carried out (an unknown source, a source in use, ...).
public struct MapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// An error saying `message`.
    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
