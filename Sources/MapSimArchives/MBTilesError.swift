import MapSimJSON

/// Why an MBTiles file cannot be read or written: the message names the file and what is missing
/// or damaged; `code` tells the kinds apart.
public struct MBTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of an MBTiles error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case missing, invalid, unreadable, cannotWrite
        }

        private let base: Base

        /// There is no such file.
        public static let missing = Code(base: .missing)
        /// The file is not an MBTiles file, or SQLite says it is damaged.
        public static let invalid = Code(base: .invalid)
        /// Reading failed otherwise.
        public static let unreadable = Code(base: .unreadable)
        /// The file cannot be written.
        public static let cannotWrite = Code(base: .cannotWrite)
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong, naming the file.
    public let message: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of `code` saying `message`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = ErrorCause(underlying)
    }

    public var description: String { message }
}
