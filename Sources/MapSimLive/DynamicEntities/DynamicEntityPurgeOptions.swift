import MapSim

/// How many observations a dynamic-entity store keeps, fixed before the source loads (ArcGIS's
/// `DynamicEntityDataSource.PurgeOptions`). The oldest observations go first.
public struct DynamicEntityPurgeOptions: Sendable, Equatable {
    /// The most observations of the whole source; 0 for no limit.
    public var maximumObservations: Int
    /// The most observations of one track; 0 for no limit.
    public var maximumObservationsPerTrack: Int
    /// An observation older than this (since it was received, on the virtual clock) is purged; zero for no limit.
    public var maximumDuration: SimTime

    /// Options; by default 100,000 observations, no limit per track, no age limit, as in ArcGIS.
    public init(maximumObservations: Int = 100_000, maximumObservationsPerTrack: Int = 0, maximumDuration: SimTime = .zero) {
        self.maximumObservations = maximumObservations
        self.maximumObservationsPerTrack = maximumObservationsPerTrack
        self.maximumDuration = maximumDuration
    }
}
