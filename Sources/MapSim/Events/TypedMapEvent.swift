/// An event of one type: its payload and time interval.
public struct TypedMapEvent<Payload: Sendable>: Sendable {
    /// The typed payload.
    public var payload: Payload
    /// When it began.
    public var begin: SimTime
    /// When it ended.
    public var end: SimTime
}
