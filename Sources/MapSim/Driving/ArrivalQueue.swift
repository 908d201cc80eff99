import Synchronization

/// Where what runs beside a drive loop posts what it brings — the answers of loads taken as they
/// arrive, the inputs of work the machine asked to be performed — and where the loop waits for it:
/// the work runs on tasks of its own, the loop takes what has come, or waits for the next (or for a
/// deadline, or its task's cancellation).
final class ArrivalQueue<Input: Sendable>: Sendable {
    /// What arrives.
    enum Arrival: Sendable {
        /// A load's answer.
        case answer(AttemptID, Response)
        /// An input posted by performed work.
        case input(Input)
        /// The performed work numbered so is over.
        case performed(Int)
        /// Nothing: the loop has more to do than when it began to wait (an input fed meanwhile).
        case wake
    }

    private struct State {
        var items: [Arrival] = []
        var waiter: CheckedContinuation<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Posts an arrival, waking the loop if it waits.
    func post(_ arrival: Arrival) {
        let waiter = state.withLock { state in
            state.items.append(arrival)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// What has arrived since the last call, in the order it arrived.
    func drain() -> [Arrival] {
        state.withLock { state in
            defer { state.items.removeAll(keepingCapacity: true) }
            return state.items
        }
    }

    /// Waits until something arrives, `deadline` passes, or the task is cancelled.
    func wait(until deadline: ContinuousClock.Instant?) async {
        // No deadline: no racer, so no task group to make and tear down at every wait.
        guard let deadline else { return await waitForArrival() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForArrival() }
            group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForArrival() async {
        state.withLock { $0.cancelled = false }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.items.isEmpty, !state.cancelled else { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
