/// An action of a `DrivenMachine`: the first three are the drive loop's to carry out, the last is
/// its owner's.
public enum DriveAction<Input: Sendable, Output: Sendable>: Sendable {
    /// Start an attempt; its answer comes back as `DrivenMachine.input(for:)`, at the time the
    /// loop's delivery model gives.
    case load(LoadOrder)
    /// Stop an attempt that is no longer wanted: its answer never comes.
    case cancelLoad(AttemptID)
    /// Feed `Input` at this time.
    case schedule(Input, at: SimTime)
    /// Something for the owner of the loop to perform.
    case output(Output)
}

extension DriveAction: Equatable where Input: Equatable, Output: Equatable {}
