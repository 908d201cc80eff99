/// Why an offline region definition is not one MapLibre Native accepts: the message names the
/// member and the reason.
public struct OfflineRegionDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
