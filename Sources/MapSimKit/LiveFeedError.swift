import MapSimJSON

/// Why live data for a load could not be set up or run: a recording that does not read, or a broker
/// that cannot be reached. `code` tells the kinds apart.
public struct LiveFeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a live feed error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case invalidRecording, unreachable
        }

        private let base: Base

        /// A recording that cannot be read or replayed.
        public static let invalidRecording = Code(base: .invalidRecording)
        /// The broker could not be reached at all.
        public static let unreachable = Code(base: .unreachable)
    }

    /// The kind of error.
    public let code: Code
    /// What went wrong, naming the file and line or the broker.
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
