import MapSim

/// One line of a feed, read: the observation and when it arrives after the feed starts.
public struct DynamicEntityFeedLine: Sendable {
    /// The line number, from 1.
    public var line: Int
    /// When it arrives, after the feed starts.
    public var offset: SimTime
    public var observation: DynamicEntityObservation
}
