/// The error another error was caused by, kept as it was thrown — a SQLite result code, a POSIX
/// error, a channel error of SwiftNIO, the YAML reader's error — rather than only flattened into the
/// message, so a caller can look at it (`error.underlying.error as? DatabaseError`); `error` is nil
/// when nothing else caused it. Errors are equal when they say the same: the cause is detail, so any
/// two compare equal.
public struct ErrorCause: Sendable, Hashable, CustomStringConvertible {
    /// The error as it was thrown; nil when nothing else caused it.
    public let error: (any Error)?

    /// Keeps `error`.
    public init(_ error: (any Error)?) {
        self.error = error
    }

    public var description: String { error.map { String(describing: $0) } ?? "none" }

    public static func == (lhs: ErrorCause, rhs: ErrorCause) -> Bool { true }

    public func hash(into hasher: inout Hasher) {}
}
