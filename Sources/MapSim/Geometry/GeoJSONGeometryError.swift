/// Why a GeoJSON geometry cannot be read: the message names the member and the reason.
public struct GeoJSONGeometryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a GeoJSON geometry error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case invalid
        }

        private let base: Base

        /// The geometry is not GeoJSON: a member missing, of the wrong type or out of range.
        public static let invalid = Code(base: .invalid)
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong, and where.
    public let message: String

    init(_ message: String) {
        self.code = .invalid
        self.message = message
    }

    public var description: String { message }
}
