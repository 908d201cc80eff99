import Dispatch
import Synchronization

/// A load running as a task of its own, whose answer is kept for the loop that waits for it: taken
/// at once when it has come (no task, no timer), else waited for — until a deadline on the wall
/// clock with one timer, cancelled when the answer comes first.
///
/// The timer is Dispatch's, not `Task.sleep`: the first `Task.sleep` of a process asks whether its
/// executor schedules, which scans every protocol conformance in the binary — a fortieth of a `load`.
public final class LoadTask: Sendable {
    /// A load's response, and how long it really took.
    public typealias Answer = (response: Response, measured: SimTime)

    private let slot = AnswerSlot()
    private let task: Task<Void, Never>

    /// Starts `load`, timed on the continuous clock.
    public init(_ load: @escaping @Sendable () async -> Response) {
        task = Task { [slot] in
            let clock = ContinuousClock()
            let started = clock.now
            let response = await load()
            slot.fill((response, SimTime(clock.now - started)))
        }
    }

    /// Waits for the answer; when the waiting task is cancelled, so is the load (which still answers).
    public func answer() async -> Answer {
        while true {
            if let answer = await answer(by: nil) { return answer }
        }
    }

    /// Waits for the answer until `deadline` (none: for as long as it takes): nil when it has not
    /// come by then, and the load goes on.
    public func answer(by deadline: ContinuousClock.Instant?) async -> Answer? {
        if let answer = slot.answer { return answer }
        if let deadline, deadline <= .now { return nil }
        var timer: DispatchWorkItem?
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer?, Never>) in
                guard let wait = slot.wait(with: continuation), let deadline else { return }
                let expiry = DispatchWorkItem { [slot] in slot.expire(wait) }
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.interval(until: deadline), execute: expiry)
                timer = expiry
            }
        } onCancel: {
            task.cancel()
        }
        timer?.cancel()
        return answer
    }

    /// The time from now until `deadline`, to the microsecond.
    private static func interval(until deadline: ContinuousClock.Instant) -> DispatchTimeInterval {
        let (seconds, attoseconds) = (deadline - .now).components
        let whole = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !whole.overflow, let microseconds = Int(exactly: whole.partialValue + attoseconds / 1_000_000_000_000) else { return .never }
        return .microseconds(microseconds)
    }

    /// Gives the load up; its task still ends with an answer.
    public func cancel() {
        task.cancel()
    }
}

/// Where a load's answer is kept, and the one wait for it resumed.
private final class AnswerSlot: Sendable {
    private struct State {
        var answer: LoadTask.Answer?
        var waiter: CheckedContinuation<LoadTask.Answer?, Never>?
        /// Numbers each wait, so that a wait's timer never ends a later one.
        var wait = 0
    }

    private let state = Mutex(State())

    /// The answer, once it has come.
    var answer: LoadTask.Answer? {
        state.withLock { $0.answer }
    }

    /// Keeps the answer and resumes the wait for it.
    func fill(_ answer: LoadTask.Answer) {
        let waiter = state.withLock { state in
            state.answer = answer
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: answer)
    }

    /// Makes `continuation` the wait for the answer and returns its number, or resumes it at once
    /// with the answer already there (and returns nil).
    func wait(with continuation: CheckedContinuation<LoadTask.Answer?, Never>) -> Int? {
        let wait = state.withLock { state -> Int? in
            guard state.answer == nil else { return nil }
            state.wait += 1
            state.waiter = continuation
            return state.wait
        }
        if wait == nil { continuation.resume(returning: answer) }
        return wait
    }

    /// Ends wait number `wait` with no answer, if it still waits.
    func expire(_ wait: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<LoadTask.Answer?, Never>? in
            guard state.wait == wait else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
