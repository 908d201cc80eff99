import MapSimJSON

/// An error of the scenario domain: a scenario file that cannot be read, a field that is wrong
/// (with its path in the document), or a scenario this runner cannot run. `message` names the file,
/// the path and the reason; `code` tells the kinds apart.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a scenario error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case unreadable, malformed, cannotRun
        }

        private let base: Base

        /// The file cannot be read.
        public static let unreadable = Code(base: .unreadable)
        /// The document is not a valid scenario.
        public static let malformed = Code(base: .malformed)
        /// The scenario is valid but cannot run here (its offline region fails to download, ...).
        public static let cannotRun = Code(base: .cannotRun)
    }

    /// The kind of error.
    public let code: Code
    /// The scenario file, or the scenario's name.
    public let file: String
    /// The path of the offending field in the document (`steps[2].wait`), when there is one.
    public let path: String?
    /// What is wrong.
    public let reason: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code` in `file`, at `path` when given.
    public init(_ code: Code, file: String, path: String? = nil, _ reason: String, underlying: (any Error)? = nil) {
        self.code = code
        self.file = file
        self.path = path.flatMap { $0.isEmpty ? nil : $0 }
        self.reason = reason
        self.underlying = ErrorCause(underlying)
    }

    /// `FILE: PATH: reason`, as the reader of the file needs it.
    public var message: String {
        if code == .unreadable { return "cannot read \(file)" + (reason.isEmpty ? "" : ": \(reason)") }
        return [file, path, reason].compactMap { $0 }.joined(separator: ": ")
    }

    public var description: String { message }
}
