import MapSimJSON

/// Why an MQTT exchange failed: a packet that breaks MQTT 3.1.1, a broker that cannot be reached,
/// refuses or does not answer, or a connection that closed. `code` tells the kinds apart.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of an MQTT error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case protocolViolation, unreachable, refused, timedOut, closed, cannotSend
        }

        private let base: Base

        /// A packet breaks MQTT 3.1.1, or a stream cannot be one.
        public static let protocolViolation = Code(base: .protocolViolation)
        /// The broker cannot be reached.
        public static let unreachable = Code(base: .unreachable)
        /// The broker refused the connection or answered wrongly.
        public static let refused = Code(base: .refused)
        /// The broker did not answer in time.
        public static let timedOut = Code(base: .timedOut)
        /// The connection closed.
        public static let closed = Code(base: .closed)
        /// A packet could not be sent.
        public static let cannotSend = Code(base: .cannotSend)
    }

    /// The kind of error.
    public let code: Code
    /// What happened.
    public let message: String

    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = ErrorCause(underlying)
    }

    public var description: String { code == .protocolViolation ? "MQTT protocol error: \(message)" : message }
}
