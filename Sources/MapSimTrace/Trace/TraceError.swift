import MapSimJSON

/// An error of the trace domain: a trace file that cannot be read, is not a trace, or cannot be
/// written. `message` names the file and, where it applies, the line or event; `code` tells the
/// kinds apart.
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a trace error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case unreadable, malformed, cannotWrite
        }

        private let base: Base

        /// The file cannot be read.
        public static let unreadable = Code(base: .unreadable)
        /// The text is not a trace: bad YAML or JSON, a missing header, an event that cannot be read.
        public static let malformed = Code(base: .malformed)
        /// The file cannot be written.
        public static let cannotWrite = Code(base: .cannotWrite)
    }

    /// The kind of error.
    public let code: Code
    /// The file, when known.
    public let file: String?
    /// The line (JSON lines) or the event number (YAML), when known.
    public let line: Int?
    /// What is wrong, without the file and line.
    public let reason: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code`; `file` and `line` say where.
    public init(_ code: Code, file: String? = nil, line: Int? = nil, _ reason: String, underlying: (any Error)? = nil) {
        self.code = code
        self.file = file
        self.line = line
        self.reason = reason
        self.underlying = ErrorCause(underlying)
    }

    /// The same error, said of `file` at `line`.
    public func located(in file: String, line: Int? = nil) -> TraceError {
        TraceError(code, file: file, line: line, reason)
    }

    /// `FILE:LINE: reason`, as much of it as is known.
    public var message: String {
        switch (file, line) {
        case (let file?, let line?): "\(file):\(line): \(reason)"
        case (let file?, nil): "\(file): \(reason)"
        default: reason
        }
    }

    public var description: String { message }
}
