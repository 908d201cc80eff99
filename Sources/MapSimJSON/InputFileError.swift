/// An input file that cannot be read: missing, not permitted, a directory, too large or unreadable,
/// with the file and the reason in words a user can act on. `code` tells the kinds apart.
public struct InputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of an input file error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case missing, notPermitted, isDirectory, tooLarge, unreadable, outOfRange
        }

        private let base: Base

        /// There is no such file.
        public static let missing = Code(base: .missing)
        /// The process may not read it.
        public static let notPermitted = Code(base: .notPermitted)
        /// It is a directory.
        public static let isDirectory = Code(base: .isDirectory)
        /// It is larger than the limit of what is read.
        public static let tooLarge = Code(base: .tooLarge)
        /// The bytes asked for start past its end.
        public static let outOfRange = Code(base: .outOfRange)
        /// Reading it failed otherwise.
        public static let unreadable = Code(base: .unreadable)
    }

    /// The kind of error.
    public let code: Code
    /// The file.
    public let path: String
    /// Why, in words a user can act on.
    public let reason: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code` about `path`.
    public init(_ code: Code, path: String, _ reason: String, underlying: (any Error)? = nil) {
        self.code = code
        self.path = path
        self.reason = reason
        self.underlying = ErrorCause(underlying)
    }

    public var description: String { "cannot read \(path == "-" ? "standard input" : path): \(reason)" }
}
