/// A topic or criteria that cannot be read, with the text and why. `code` tells the kinds apart.
public struct LiveTopicError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a topic error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case invalidTopic, invalidCriteria, invalidLocationFields
        }

        private let base: Base

        /// A topic that does not name its seven levels.
        public static let invalidTopic = Code(base: .invalidTopic)
        /// Criteria that cannot match topics as written.
        public static let invalidCriteria = Code(base: .invalidCriteria)
        /// A mapping of topic levels to feature properties that cannot be read.
        public static let invalidLocationFields = Code(base: .invalidLocationFields)
    }

    /// The kind of error.
    public let code: Code
    /// The text as given.
    public let topic: String
    /// Why it cannot be read.
    public let reason: String

    /// An error of kind `code` about `topic`.
    public init(_ code: Code, topic: String, _ reason: String) {
        self.code = code
        self.topic = topic
        self.reason = reason
    }

    public var description: String {
        code == .invalidLocationFields ? "invalid location fields \"\(topic)\": \(reason)" : "invalid topic \"\(topic)\": \(reason)"
    }
}
