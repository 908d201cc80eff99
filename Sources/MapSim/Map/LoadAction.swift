/// Identifies one request a map made, in the order they were made.
public struct RequestID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The request's number; later requests have larger numbers.
    public let value: Int

    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.value < rhs.value }
    public var description: String { "#\(value)" }
}

/// What a state machine of the map asks the `Map` actor to do.
enum LoadAction: Sendable, Equatable {
    /// Start loading `resource`; its response comes back as `LoadSequence.receive(_:for:)`.
    case startRequest(RequestID, Resource)
    /// Cancel a request that is no longer wanted.
    case cancelRequest(RequestID)
    /// Send an event to observers, stamped with the current time.
    case emit(MapEventPayload)
    /// Something visible changed: a frame is needed.
    case invalidate
}

/// A glyph range of one font stack: 256 code points from `start`.
struct GlyphRangeKey: Sendable, Hashable, Comparable {
    var fontStack: [String]
    var start: Int

    static func < (lhs: GlyphRangeKey, rhs: GlyphRangeKey) -> Bool {
        (lhs.fontStack.joined(separator: ","), lhs.start) < (rhs.fontStack.joined(separator: ","), rhs.start)
    }
}
