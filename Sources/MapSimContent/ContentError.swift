import MapSimJSON

/// Content that cannot be used — a manifest, a key, a package — or a package that cannot be made or
/// installed, with what and where. `code` tells the kinds apart.
public struct ContentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a content error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case invalidManifest, invalidKey, invalidPackage, cannotPack, cannotRead, cannotWrite
        }

        private let base: Base

        /// A manifest that does not read.
        public static let invalidManifest = Code(base: .invalidManifest)
        /// A key that is not an Ed25519 key of the kind asked for.
        public static let invalidKey = Code(base: .invalidKey)
        /// A package that is not one, is damaged, or does not check.
        public static let invalidPackage = Code(base: .invalidPackage)
        /// A package that cannot be made from its files.
        public static let cannotPack = Code(base: .cannotPack)
        /// A site folder or file that cannot be read.
        public static let cannotRead = Code(base: .cannotRead)
        /// Content that cannot be written into the cache.
        public static let cannotWrite = Code(base: .cannotWrite)
    }

    /// The kind of error.
    public let code: Code
    /// What and where.
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
