import MapSimJSON

/// Why `mapsim serve` cannot serve what it was given: a style that is not a file or not JSON, a
/// folder that is not one, an address it cannot listen on.
public struct ServeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a serve error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case unreadable, invalid, unavailable
        }

        private let base: Base

        /// The style, its folder or an archive cannot be read (or fetched).
        public static let unreadable = Code(base: .unreadable)
        /// What was read is not a style, or not an archive.
        public static let invalid = Code(base: .invalid)
        /// The address cannot be listened on.
        public static let unavailable = Code(base: .unavailable)
    }

    /// The kind of error.
    public let code: Code
    public let description: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of `code` saying `description`.
    public init(_ code: Code, _ description: String, underlying: (any Error)? = nil) {
        self.code = code
        self.description = description
        self.underlying = ErrorCause(underlying)
    }
}
