import MapSimJSON

/// Why a PMTiles archive cannot be read or written: the message names the part and the offset;
/// `code` tells a damaged archive from one that cannot be written.
public struct PMTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a PMTiles error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case malformed, cannotWrite
        }

        private let base: Base

        /// The archive's bytes are not PMTiles (damaged, truncated, of another format).
        public static let malformed = Code(base: .malformed)
        /// The archive cannot be written where it was asked to be.
        public static let cannotWrite = Code(base: .cannotWrite)
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong, and where.
    public let message: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of `code` saying `message`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = ErrorCause(underlying)
    }

    /// Bytes that are not PMTiles, saying `message`.
    public init(_ message: String) {
        self.init(.malformed, message)
    }

    public var description: String { message }
}
