/// A machine attached to a map — live data, dynamic entities — that runs in the map's own drive
/// loop beside the map's machine, on its one scheduler and its one clock, as a channel handler runs
/// on its channel's event loop: nothing keeps two clocks in step, and a run gives the same trace
/// every time.
///
/// It is a pure machine like every other: the loop feeds it one input at a time, with the time; it
/// schedules its own inputs, sends events into the map's stream, makes calls of the map's API and
/// reads what the map shows through the actions it returns. Its inputs due at a time come after the
/// map's own work due then, as they would if it ran beside the map and let the map catch up first.
public protocol MapAttachment: StateMachine where Action == AttachmentAction<Input> {
    /// The input a map event means to it (a camera change, say); nil for an event it does not follow.
    /// It is handed over as soon as the map sends the event.
    func input(for event: MapEventPayload) -> Input?

    /// The input it waits to be handed once the map is idle (has reached map-idle and has nothing
    /// left to draw) — at once if the map is idle now; nil while it waits for nothing. While it
    /// waits, the map is not idle to `Map.run(until: .mapIdle, …)`.
    var inputWhenMapIsIdle: Input? { get }
}

extension MapAttachment {
    /// An attachment that follows no map event.
    public func input(for event: MapEventPayload) -> Input? { nil }

    /// An attachment that never waits for the map to be idle.
    public var inputWhenMapIsIdle: Input? { nil }
}
