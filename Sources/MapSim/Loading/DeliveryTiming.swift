/// Decides, in virtual time, how long after its start a response is delivered. Models for simulated
/// runs decide from the request and the response alone, never from how long the real load took, so
/// runs are reproducible; `MeasuredDelivery` (for the real network) uses the real duration instead.
/// This is the one place that decides when an answer arrives: the models of real and simulated
/// networks deliver answers from the cache and from local files at once.
public protocol DeliveryTiming: Sendable {
    /// The virtual time between starting `resource` and delivering `response`; `measured` is how
    /// long the real load took.
    mutating func delay(for resource: Resource, response: Response, measured: SimTime) -> SimTime

    /// Whether a network answer comes no sooner than its load really took (`MeasuredDelivery`): a
    /// drive loop may then stop waiting for a load once its answer could only come after the time
    /// it runs to, on the wall clock. False for the models of simulated networks.
    var waitsForRealTime: Bool { get }
}

extension DeliveryTiming {
    /// Simulated networks decide delivery from the request and response alone.
    public var waitsForRealTime: Bool { false }
}
