/// A style or TileJSON that cannot be used, with where the problem is.
public struct StyleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the offending value, e.g. `layers[3].source` (empty for the document itself).
    public var path: String
    /// What is wrong.
    public var message: String

    /// An error at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone for the document itself.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
