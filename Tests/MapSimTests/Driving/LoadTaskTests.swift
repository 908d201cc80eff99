import Synchronization
import Testing
@testable import MapSim

/// A load's own task and the loop's waits for its answer: at once when it is there, until a
/// deadline when it is not (the load going on), and a cancelled load still answering.
@Suite("LoadTask")
struct LoadTaskTests {
    /// A load held until released or cancelled.
    private final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        func pass() async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let open = state.withLock { state in
                        if !state.open { state.waiter = continuation }
                        return state.open
                    }
                    if open { continuation.resume() }
                }
            } onCancel: {
                open()
            }
        }

        func open() {
            let waiter = state.withLock { state in
                state.open = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anAnswerThatCameIsTakenAsOftenAsAsked() async {
        let task = LoadTask { .success([7], source: .network) }
        let first = await task.answer()
        #expect(first.response.data == [7])
        // Taken again, by any deadline — even one already past.
        #expect(await task.answer(by: .now + .seconds(60))?.response.data == [7])
        #expect(await task.answer(by: .now - .seconds(1))?.response.data == [7])
    }

    @Test(.timeLimit(.minutes(1)))
    func aWaitEndsAtItsDeadlineAndTheLoadGoesOnToAnswerTheNextWait() async {
        let gate = Gate()
        let task = LoadTask {
            await gate.pass()
            return .success([1, 2], source: .network)
        }
        #expect(await task.answer(by: .now + .milliseconds(50)) == nil, "not answered by the deadline")
        #expect(await task.answer(by: .now - .seconds(1)) == nil, "a deadline already past does not wait")
        gate.open()
        let answer = await task.answer(by: .now + .seconds(60))
        #expect(answer?.response.data == [1, 2], "the load went on, and its answer ends the next wait")
        #expect(answer.map { $0.measured > .zero } == true, "timed from its start, across the wait that expired")
    }

    @Test(.timeLimit(.minutes(1)))
    func aCancelledLoadStillAnswers() async {
        let task = LoadTask {
            await Gate().pass()
            return .failure(.other, "given up", source: .network)
        }
        task.cancel()
        #expect(await task.answer().response.error?.message == "given up")
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingTheWaitCancelsTheLoad() async {
        let task = LoadTask {
            await Gate().pass()
            return .failure(.other, "given up", source: .network)
        }
        let waiter = Task { await task.answer() }
        waiter.cancel()
        #expect(await waiter.value.response.error?.message == "given up")
    }
}
