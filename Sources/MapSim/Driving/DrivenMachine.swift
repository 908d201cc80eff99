/// A state machine that loads resources, run by a `DriveLoop`: its actions are loads, cancellations
/// and inputs to feed it later — which the loop carries out itself — and outputs, which the loop hands
/// to its owner (a map's events and cache writes, a region's pins).
public protocol DrivenMachine: StateMachine where Action == DriveAction<Input, Output> {
    /// What the owner of the loop performs.
    associatedtype Output: Sendable

    /// The input that hands the machine the answer to one of its loads.
    static func input(for answer: LoadAnswer) -> Input
}
