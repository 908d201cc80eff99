/// Why a PMTiles archive cannot be read or written: the message names the part and the offset.
public struct PMTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, and where.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
