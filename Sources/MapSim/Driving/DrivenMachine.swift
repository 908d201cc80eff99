/// A state machine that loads resources, run by a `DriveLoop`: its actions are loads, cancellations
/// and inputs to feed it later — which the loop carries out itself — and outputs, which the loop hands
/// to its owner (a map's events and cache writes, a region's pins).
public protocol DrivenMachine: StateMachine where Action == DriveAction<Input, Output> {
    /// What the owner of the loop performs.
    associatedtype Output: Sendable

    /// The input that hands the machine the answer to one of its loads.
    static func input(for answer: LoadAnswer) -> Input

    /// The lane of a scheduled input: of inputs due at the same time, those of a lower lane come
    /// first (answers are in lane 0). A map's own work is lane 0, what is attached to it later.
    static func lane(of input: Input) -> UInt8
}

extension DrivenMachine {
    /// Every input in lane 0: in the order scheduled.
    public static func lane(of input: Input) -> UInt8 { 0 }
}
