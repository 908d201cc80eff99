import MapSimJSON

/// An error of the style domain: a style or TileJSON that is not JSON, or a value that cannot be
/// used, with its JSON path. `code` tells the kinds apart.
public struct StyleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a style error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case notJSON, invalidValue
        }

        private let base: Base

        /// The document is not JSON.
        public static let notJSON = Code(base: .notJSON)
        /// A value is missing, of the wrong type or out of range.
        public static let invalidValue = Code(base: .invalidValue)
    }

    /// The kind of error.
    public let code: Code
    /// The JSON path of the offending value, e.g. `layers[3].source` (empty for the document itself).
    public let path: String
    /// What is wrong.
    public let message: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code` at `path`.
    public init(_ code: Code, path: String, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.underlying = ErrorCause(underlying)
    }

    /// `path: message`, or the message alone for the document itself.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
