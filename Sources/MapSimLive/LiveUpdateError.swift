import MapSimJSON

/// A payload that is not a live update, with its topic and why. `code` tells the kinds apart.
public struct LiveUpdateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of an update error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case notJSON, missingField, invalidField
        }

        private let base: Base

        /// The payload is not a JSON object.
        public static let notJSON = Code(base: .notJSON)
        /// A field the update needs is missing.
        public static let missingField = Code(base: .missingField)
        /// A field has a value the update cannot take.
        public static let invalidField = Code(base: .invalidField)
    }

    /// The kind of error.
    public let code: Code
    /// The topic the payload came on.
    public let topic: String
    /// Why it is not an update.
    public let reason: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code` about a payload on `topic`.
    public init(_ code: Code, topic: String, _ reason: String, underlying: (any Error)? = nil) {
        self.code = code
        self.topic = topic
        self.reason = reason
        self.underlying = ErrorCause(underlying)
    }

    public var description: String { "invalid update on \(topic): \(reason)" }
}
