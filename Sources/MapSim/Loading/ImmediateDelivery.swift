/// Delivers every response at the instant it was requested: local files with no I/O cost modelled.
public struct ImmediateDelivery: DeliveryTiming {
    /// Immediate delivery.
    public init() {}

    public func delay(for resource: Resource, response: Response, measured: SimTime) -> SimTime { .zero }
}
