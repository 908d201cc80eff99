/// An action of a `DrivenMachine`: all but `output` are the drive loop's to carry out, `output` is
/// its owner's.
public enum DriveAction<Input: Sendable, Output: Sendable>: Sendable {
    /// Start an attempt; its answer comes back as `DrivenMachine.input(for:)`, at the time the
    /// loop's delivery model gives.
    case load(LoadOrder)
    /// Stop an attempt that is no longer wanted: its answer never comes.
    case cancelLoad(AttemptID)
    /// Feed `Input` at this time.
    case schedule(Input, at: SimTime)
    /// Run this work — real I/O beside the loop, a transport — on a task of its own; each input it
    /// posts is fed when the loop next steps, at the loop's time then (on a loop following the wall
    /// clock: as it arrives). The loop cancels the work when it goes.
    case perform(@Sendable (InputPost<Input>) async -> Void)
    /// Something for the owner of the loop to perform.
    case output(Output)
}

extension DriveAction: Equatable where Input: Equatable, Output: Equatable {
    /// Equal actions ask for the same thing; work to perform is equal to none, not even itself (a
    /// closure has no identity to compare).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.load(let a), .load(let b)): a == b
        case (.cancelLoad(let a), .cancelLoad(let b)): a == b
        case (.schedule(let a, let at), .schedule(let b, let bt)): a == b && at == bt
        case (.output(let a), .output(let b)): a == b
        default: false
        }
    }
}
