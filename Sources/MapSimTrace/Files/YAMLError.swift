import MapSimJSON

/// A YAML document that is refused: not YAML, nested too deep, or expanding (through aliases) past
/// the limit of values. `line` is 1-based when known. `code` tells the kinds apart.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a YAML error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case malformed, tooDeep, tooLarge
        }

        private let base: Base

        /// Not valid YAML.
        public static let malformed = Code(base: .malformed)
        /// Nested deeper than the reader goes.
        public static let tooDeep = Code(base: .tooDeep)
        /// More values than the reader holds, once aliases are expanded.
        public static let tooLarge = Code(base: .tooLarge)
    }

    /// The kind of error.
    public let code: Code
    /// The line of the node that went wrong, when known.
    public let line: Int?
    /// What is wrong.
    public let reason: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code` at `line`.
    public init(_ code: Code, line: Int?, _ reason: String, underlying: (any Error)? = nil) {
        self.code = code
        self.line = line
        self.reason = reason
        self.underlying = ErrorCause(underlying)
    }

    public var description: String { reason }
}
