import MapSimJSON

/// An error of the cache domain: the cache file cannot be opened, read or written, or an offline
/// region cannot be downloaded. `message` names the file or URL and the reason; `code` tells the
/// kinds apart.
public struct CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a cache error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case cannotOpen, cannotRead, cannotWrite, downloadFailed, foreign, newerVersion, damaged, tileLimitExceeded, noSuchRegion
        }

        private let base: Base

        /// The file cannot be opened or created.
        public static let cannotOpen = Code(base: .cannotOpen)
        /// The file cannot be read.
        public static let cannotRead = Code(base: .cannotRead)
        /// The file cannot be written (it may be open read-only).
        public static let cannotWrite = Code(base: .cannotWrite)
        /// An offline region could not be downloaded.
        public static let downloadFailed = Code(base: .downloadFailed)
        /// The file is a database, but not an offline database (or not one that can be merged).
        public static let foreign = Code(base: .foreign)
        /// The file is MapLibre's offline database of a newer schema version than mapsim knows.
        public static let newerVersion = Code(base: .newerVersion)
        /// SQLite says the file is damaged (or a stored body does not inflate).
        public static let damaged = Code(base: .damaged)
        /// The `mapbox://` tile count limit stops a download or a merge.
        public static let tileLimitExceeded = Code(base: .tileLimitExceeded)
        /// There is no offline region with the id asked for.
        public static let noSuchRegion = Code(base: .noSuchRegion)
    }

    /// The kind of error.
    public let code: Code
    /// The cache file, or the region's style, the error is about.
    public let path: String
    /// What went wrong, naming the file or URL.
    public let message: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code` about `path`.
    public init(_ code: Code, path: String, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.underlying = ErrorCause(underlying)
    }

    public var description: String { message }
}
