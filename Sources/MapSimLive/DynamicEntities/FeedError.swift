import MapSimJSON

/// A feed of observations that cannot be read: the file, or one of its lines. `code` tells the
/// kinds apart; a malformed line is skipped and reported, never the end of a replay (unless strict).
public struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a feed error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case unreadable, malformedLine
        }

        private let base: Base

        /// The feed cannot be opened or read.
        public static let unreadable = Code(base: .unreadable)
        /// A line is not an observation.
        public static let malformedLine = Code(base: .malformedLine)
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong, naming the file or the place in the line.
    public let message: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = ErrorCause(underlying)
    }

    public var description: String { message }
}
