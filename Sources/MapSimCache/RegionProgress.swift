/// How far a region download is.
public struct RegionProgress: Sendable, Equatable {
    /// Resources done (stored, found in the cache, or absent on the server).
    public var completedResources = 0
    /// Resources known to be needed so far; grows as TileJSONs arrive.
    public var requiredResources = 0
    /// Bytes stored or found.
    public var completedBytes = 0
    /// Resources that could not be downloaded.
    public var failures: [String] = []

    /// Whether every required resource is done.
    public var isComplete: Bool { completedResources + failures.count == requiredResources }
}
