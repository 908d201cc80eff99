/// Decides, in virtual time, how long after its start a response is delivered. Models for simulated
/// runs decide from the request and the response alone, never from how long the real load took, so
/// runs are reproducible; `MeasuredDelivery` (for the real network) uses the real duration instead.
public protocol DeliveryTiming: Sendable {
    /// The virtual time between starting `resource` and delivering `response`; `measured` is how
    /// long the real load took.
    mutating func delay(for resource: Resource, response: Response, measured: SimTime) -> SimTime

    /// Spans of virtual time during which the network is gone: the map goes offline at each start
    /// and back online at each end.
    var offlineWindows: [Range<SimTime>] { get }
}

extension DeliveryTiming {
    /// No offline windows.
    public var offlineWindows: [Range<SimTime>] { [] }
}
