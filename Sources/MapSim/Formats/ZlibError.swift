/// Bytes that do not inflate: the reason zlib gave, or the size limit they would pass.
public struct ZlibError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why.
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
