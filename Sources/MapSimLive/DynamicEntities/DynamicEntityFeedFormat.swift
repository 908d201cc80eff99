import MapSim

/// How to read a feed of observations: which attribute is the track id, and when each observation
/// arrives — by a time attribute (its changes, divided by the speed factor) or at a fixed interval.
public struct DynamicEntityFeedFormat: Sendable, Equatable {
    /// The attribute whose value names the track (`MMSI` in the AIS sample).
    public var trackIDField: String
    /// The attribute that says when the observation was made (ISO 8601, with or without a zone —
    /// without one it is UTC — or milliseconds since 1970); nil to play at `interval`.
    public var timeField: String?
    /// The time between observations without a time field (10 ms, as the public sample plays).
    public var interval: SimTime
    /// How much faster than real time to play: 2 halves every wait.
    public var speed: Double

    /// A format.
    public init(trackIDField: String, timeField: String? = nil, interval: SimTime = .milliseconds(10), speed: Double = 1) {
        self.trackIDField = trackIDField
        self.timeField = timeField
        self.interval = interval
        self.speed = speed
    }
}
