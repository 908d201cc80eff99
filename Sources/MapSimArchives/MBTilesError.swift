/// Why an MBTiles file cannot be read or written: the message names the file and what is missing
/// or damaged.
public struct MBTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Reason: Sendable, Equatable {
        /// There is no such file.
        case missing
        /// The file is not an MBTiles file, or SQLite says it is damaged.
        case invalid
        /// Reading or writing failed otherwise.
        case other
    }

    /// What kind of failure it is.
    public let reason: Reason
    /// What is wrong, naming the file.
    public let message: String

    /// An error of `reason` saying `message`.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
