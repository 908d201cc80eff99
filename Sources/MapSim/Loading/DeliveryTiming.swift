/// Decides, in virtual time, how long after its start a response is delivered. Models for simulated
/// runs decide from the request and the response alone, never from how long the real load took, so
/// runs are reproducible; `MeasuredDelivery` (for the real network) uses the real duration instead.
/// This is the one place that decides when an answer arrives: the models of real and simulated
/// networks deliver answers from the cache and from local files at once.
public protocol DeliveryTiming: Sendable {
    /// The virtual time between starting `resource` and delivering `response`; `measured` is how
    /// long the real load took.
    mutating func delay(for resource: Resource, response: Response, measured: SimTime) -> SimTime
}
