/// What a `MapAttachment` asks of the map's drive loop. Calls, reads and feeds are carried out at
/// once, in order, and what they give is handed back to the attachment before its next action.
public enum AttachmentAction<Input: Sendable>: Sendable {
    /// Feed `Input` at this time, after the map's own work due then.
    case schedule(Input, at: SimTime)
    /// Feed `Input` at this time after everything else due then — the map's work and the
    /// attachment's other inputs, also those scheduled at that time meanwhile.
    case scheduleLast(Input, at: SimTime)
    /// Send an event into the map's stream, as an instant now.
    case emit(MapEventPayload)
    /// Make a call of the map's API (`setCamera`, `addLayer`, `removeLayer`, `updateGeoJSONSource` and
    /// the like); `answer` turns its refusal (nil when it was made) into an input, handled at once.
    case call(MapInput, answer: @Sendable (LoadingError?) -> Input?)
    /// Load `Resource` through the map's loading pipeline (its network, faults, offline mode and
    /// cache, its resource-request events in the map's stream); `answer` turns the first answer — a
    /// failure when none came within `timeout` — into an input, handled once the map's input that
    /// brought it is done. Nothing is retried after a failure.
    case fetch(Resource, timeout: SimTime, answer: @Sendable (Response) -> Input)
    /// Run this work — a real transport's I/O — on a task of its own beside the loop; each input it
    /// posts is handed to the attachment when the loop next takes what arrived (on a map following
    /// the wall clock, as it arrives). The work is cancelled when the map goes.
    case perform(@Sendable (InputPost<Input>) async -> Void)
    /// Read the map as it is now; the input `read` makes of it is handled at once.
    case read(@Sendable (MapReadout) -> Input)
    /// Handle `Input` at once, after the actions before it (a step that needs their answers).
    case feed(Input)
}
