import MapSimJSON

/// Why a WebSocket feed could not be read: `code` tells the kinds apart; a failure of the
/// connection itself keeps the transport's error as `underlying`.
public struct WebSocketFeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a WebSocket feed error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case invalidURL, refused, protocolViolation, connection
        }

        private let base: Base

        /// The URL is not a `ws://` or `wss://` URL.
        public static let invalidURL = Code(base: .invalidURL)
        /// The server did not take the upgrade (another status, a wrong `Sec-WebSocket-Accept`).
        public static let refused = Code(base: .refused)
        /// The server sent what a WebSocket server must not send.
        public static let protocolViolation = Code(base: .protocolViolation)
        /// The connection failed or ended before the handshake.
        public static let connection = Code(base: .connection)
    }

    /// The kind of error.
    public let code: Code
    /// What went wrong.
    public let message: String
    /// The error that caused it, when it came from another (a file system's, SQLite's, a transport's).
    public let underlying: ErrorCause

    /// An error of kind `code` saying `message`, caused by `underlying`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = ErrorCause(underlying)
    }

    /// A failure of the connection, worded from the transport's `error`, which is kept.
    static func connection(_ error: any Error) -> WebSocketFeedError {
        WebSocketFeedError(.connection, TransportFailure.reason(error), underlying: error)
    }

    public var description: String { message }
}
