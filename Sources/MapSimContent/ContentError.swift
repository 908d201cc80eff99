/// Content that cannot be used — a manifest, a key, a package — with what and where.
public struct ContentError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
