/// Why an offline region definition is not one MapLibre Native accepts: the message names the
/// member and the reason.
public struct OfflineRegionDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a region definition error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case invalid
        }

        private let base: Base

        /// The definition is not one MapLibre Native decodes: a member missing, of the wrong type or out of range.
        public static let invalid = Code(base: .invalid)
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong.
    public let message: String

    init(_ message: String) {
        self.code = .invalid
        self.message = message
    }

    public var description: String { message }
}
