/// A typed handle on one event type, for `Map.subscribe(_:handler:)`: it picks that type's payload out
/// of the event stream.
public struct MapEventKind<Payload: Sendable>: Sendable {
    /// The event type.
    public let type: MapEventType
    let extract: @Sendable (MapEventPayload) -> Payload?

    /// The typed payload of `payload` when it is of this type, else nil.
    public func payload(in payload: MapEventPayload) -> Payload? {
        extract(payload)
    }
}
