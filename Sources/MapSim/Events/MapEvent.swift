/// One event: its payload and time interval. Instant events have `begin == end`.
public struct MapEvent: Sendable, Equatable {
    /// When it began (for requests: when the request started).
    public var begin: SimTime
    /// When it ended (for requests: when the response or cancellation arrived).
    public var end: SimTime
    /// What happened.
    public var payload: MapEventPayload

    /// An event over `begin...end`.
    public init(begin: SimTime, end: SimTime, payload: MapEventPayload) {
        self.begin = begin
        self.end = end
        self.payload = payload
    }

    /// The event type.
    public var type: MapEventType { payload.type }
}
