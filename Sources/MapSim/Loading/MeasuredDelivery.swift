/// Delivers each network response after the real time its load took (local files at once): traces of
/// real network runs show real latencies. Waits such as retry back-offs still pass in virtual time, so a run never sleeps.
public struct MeasuredDelivery: DeliveryTiming {
    /// Measured delivery.
    public init() {}

    /// A network answer comes after the real time its load took.
    public var waitsForRealTime: Bool { true }

    public func delay(for resource: Resource, response: Response, measured: SimTime) -> SimTime {
        response.source == .network ? measured : .zero
    }
}
