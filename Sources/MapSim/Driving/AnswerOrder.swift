/// In which order a `DriveLoop` takes the answers of its loads.
public enum AnswerOrder: Sendable {
    /// In the order their loads started, at the times the `DeliveryTiming` gives: the same inputs
    /// give the same outputs on every run.
    case deterministic
    /// As they arrive, on the wall clock (the real network, where no run repeats another).
    case onArrival
}
