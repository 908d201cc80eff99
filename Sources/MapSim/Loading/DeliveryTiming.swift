/// Decides, in virtual time, how long after its start a response is delivered — from the request and
/// the response alone, never from how long the real load took, so runs are reproducible.
public protocol DeliveryTiming: Sendable {
    /// The virtual time between starting `resource` and delivering `response`.
    mutating func delay(for resource: Resource, response: Response) -> SimTime
}

/// Delivers every response at the instant it was requested: local files with no I/O cost modelled.
public struct ImmediateDelivery: DeliveryTiming {
    /// Immediate delivery.
    public init() {}

    public func delay(for resource: Resource, response: Response) -> SimTime { .zero }
}
