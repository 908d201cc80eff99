/// A pure state machine: no I/O and no clock of its own. An executor feeds it one input at a time,
/// with the time, and carries out the actions it returns, in order — so the same inputs at the same
/// times give the same actions, and a test drives it directly.
///
/// Every machine of mapsim has this one shape, as AsyncHTTPClient's `HTTPRequestStateMachine`: the
/// load sequence, the request pipeline, the render model, the map that composes them, a region
/// download, the live-data manager, a dynamic-entity connection and a site's data manager.
public protocol StateMachine: Sendable {
    /// What can happen to the machine.
    associatedtype Input: Sendable
    /// What the machine asks its executor to do.
    associatedtype Action: Sendable

    /// Handles `input` at `now`; returns what to do, in order.
    mutating func handle(_ input: Input, at now: SimTime) -> [Action]
}
