/// Why a GeoJSON geometry cannot be read: the message names the member and the reason.
public struct GeoJSONGeometryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, and where.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
