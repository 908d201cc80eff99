import MapSimJSON

/// Why a test's support could not do its part: a tool that is not installed, a server that would
/// not start, or an event that never came. `code` tells the kinds apart.
public struct TestSupportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a test support error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case notInstalled, cannotStart, timedOut
        }

        private let base: Base

        /// A program the test needs is not installed.
        public static let notInstalled = Code(base: .notInstalled)
        /// A server or a tool could not be started or set up.
        public static let cannotStart = Code(base: .cannotStart)
        /// What the test waited for did not happen in time.
        public static let timedOut = Code(base: .timedOut)
    }

    /// The kind of error.
    public let code: Code
    /// What went wrong.
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
