import MapSim

/// Delivers every response but the cache's a fixed time after its request — local files too —,
/// optionally longer for some URLs: enough to have requests in flight when a test moves the camera.
public struct FixedLatency: DeliveryTiming {
    /// The delay of every response.
    public var latency: SimTime
    /// Extra delay for URLs containing a key.
    public var extra: [(contains: String, delay: SimTime)]

    /// Responses arrive `latency` after their request.
    public init(_ latency: SimTime, extra: [(contains: String, delay: SimTime)] = []) {
        self.latency = latency
        self.extra = extra
    }

    public func delay(for resource: Resource, response: Response, measured: SimTime) -> SimTime {
        guard response.source != .cache else { return .zero }
        return extra.first { resource.url.contains($0.contains) }.map { latency + $0.delay } ?? latency
    }
}
