import Synchronization

/// Where the loads of a drive loop that delivers answers as they arrive post them: the loads
/// finish on tasks of their own, the loop takes what has come, or waits for the next (or for a
/// deadline, or its task's cancellation).
final class ArrivalQueue: Sendable {
    /// A load's answer.
    struct Arrival: Sendable {
        var attempt: AttemptID
        var response: Response
    }

    private struct State {
        var items: [Arrival] = []
        var waiter: CheckedContinuation<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Posts an answer, waking the loop if it waits.
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
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForArrival() }
            if let deadline { group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) } }
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
