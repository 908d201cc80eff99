import MapSim
import MapSimJSON

/// One line of a feed, read: the observation, when it arrives after the feed starts, and its
/// attributes (for the filter and the map).
public struct DynamicEntityFeedLine: Sendable {
    /// The line number, from 1.
    public var line: Int
    /// When it arrives, after the feed starts.
    public var offset: SimTime
    public var observation: DynamicEntityObservation
    public var attributes: JSONObject
}
