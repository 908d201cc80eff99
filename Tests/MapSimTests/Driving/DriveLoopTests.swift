import Testing
import MapSimTesting
@testable import MapSim

/// The one drive loop: where answers and scheduled inputs fall in time and in order, cancellation,
/// and the clock.
@Suite("DriveLoop")
struct DriveLoopTests {
    /// A machine that loads what it is told to, and reports answers and ticks.
    struct Probe: DrivenMachine {
        enum Input: Sendable {
            case load([String])
            case cancel(Int)
            case tick(String, after: SimTime)
            case ticked(String)
            case answer(LoadAnswer)
            /// Work beside the loop posts these ticks, in order.
            case perform([String])
        }

        enum Output: Sendable, Hashable {
            case answered(String)
            case ticked(String)
        }

        private var next = 0

        static func input(for answer: LoadAnswer) -> Input { .answer(answer) }

        mutating func handle(_ input: Input, at now: SimTime) -> [DriveAction<Input, Output>] {
            switch input {
            case .load(let urls):
                return urls.map { url in
                    defer { next += 1 }
                    return .load(LoadOrder(request: RequestID(value: next), attempt: AttemptID(value: next), backend: .network,
                                           resource: Resource(url: url, kind: .tile)))
                }
            case .cancel(let attempt): return [.cancelLoad(AttemptID(value: attempt))]
            case .tick(let name, let delay): return [.schedule(.ticked(name), at: now + delay)]
            case .ticked(let name): return [.output(.ticked(name))]
            case .answer(let answer): return [.output(.answered(answer.order.resource.url))]
            case .perform(let names): return [.perform { post in for name in names { post(.ticked(name)) } }]
            }
        }
    }

    private func loop(latency: SimTime = .milliseconds(10)) -> (DriveLoop<Probe, CannedLoads>, CannedLoads) {
        let loads = CannedLoads { .success(Array($0.url.utf8), source: .network) }
        return (DriveLoop(machine: Probe(), loads: loads, timing: FixedLatency(latency)), loads)
    }

    private func run<Loads>(_ loop: DriveLoop<Probe, Loads>, until limit: SimTime = .seconds(1)) async -> [(Probe.Output, SimTime)] {
        var seen: [(Probe.Output, SimTime)] = []
        await loop.run(until: limit) { seen.append(($0, loop.now)) }
        return seen
    }

    @Test func answersArriveAtTheTimeTheDeliveryModelGivesInTheOrderLoadsStarted() async {
        let (loop, loads) = loop()
        loop.feed(.load(["a", "b", "c"])) { _ in }
        let seen = await run(loop)
        #expect(seen.map(\.0) == [.answered("a"), .answered("b"), .answered("c")])
        #expect(seen.allSatisfy { $0.1 == .milliseconds(10) })
        #expect(loads.started.map(\.url) == ["a", "b", "c"])
        #expect(loop.now == .seconds(1) && !loop.hasPendingWork())
    }

    @Test func anAnswerTakesItsPlaceWhenTheLoopNextSteps() async {
        let (loop, _) = loop()
        // The load starts, then a tick is scheduled for the same instant as its answer: the tick was
        // placed first, so it runs first; a tick scheduled after the loop stepped runs after.
        loop.feed(.load(["a"])) { _ in }
        loop.feed(.tick("before", after: .milliseconds(10))) { _ in }
        #expect(await loop.step(notAfter: .zero) { _ in } == false)
        loop.feed(.tick("after", after: .milliseconds(10))) { _ in }
        let seen = await run(loop)
        #expect(seen.map(\.0) == [.ticked("before"), .answered("a"), .ticked("after")])
    }

    @Test func aCancelledLoadIsNeverAnsweredAndDoesNotMoveTheClock() async {
        let (loop, _) = loop(latency: .milliseconds(50))
        loop.feed(.load(["a", "b"])) { _ in }
        loop.feed(.tick("t", after: .milliseconds(20))) { _ in }
        #expect(await loop.step(notAfter: .seconds(1)) { _ in })
        #expect(loop.now == .milliseconds(20))
        // Its answer is already placed at 50 ms: cancelling drops it.
        loop.feed(.cancel(0)) { _ in }
        var seen: [Probe.Output] = []
        #expect(await loop.step(notAfter: .seconds(1)) { seen.append($0) })
        #expect(seen == [.answered("b")] && loop.now == .milliseconds(50))
        #expect(!loop.hasPendingWork())
    }

    @Test func nothingIsDueBeforeItsTime() async {
        let (loop, _) = loop()
        loop.feed(.load(["a"])) { _ in }
        #expect(loop.hasPendingWork())
        #expect(await loop.step(notAfter: .milliseconds(9)) { _ in } == false)
        #expect(loop.now == .zero, "the clock moves only to what runs")
        // Its answer, due at 10 ms, was still awaited at 9: a run that stops there did not stop
        // for want of anything to load.
        #expect(loop.hasPendingWork(by: .milliseconds(9)))
        #expect(await loop.step(notAfter: .milliseconds(10)) { _ in })
        #expect(loop.now == .milliseconds(10))
    }

    @Test func anInputDueAfterALimitIsNothingPendingByIt() async {
        // A refresh an hour out is not what a run that stopped at its 20 s timeout waited for.
        let (loop, _) = loop()
        loop.feed(.tick("refresh", after: .seconds(3600))) { _ in }
        #expect(await loop.step(notAfter: .seconds(20)) { _ in } == false)
        #expect(loop.hasPendingWork() && !loop.hasPendingWork(by: .seconds(20)) && loop.hasPendingWork(by: .seconds(3600)))
        loop.feed(.load(["a"])) { _ in }
        #expect(loop.hasPendingWork(by: .seconds(20)), "a load under way")
    }

    @Test func whatPerformedWorkPostsIsFedAtTheLoopsTimeWhenItNextSteps() async {
        let (loop, _) = loop()
        loop.feed(.tick("timer", after: .milliseconds(5))) { _ in }
        loop.feed(.perform(["x", "y"])) { _ in }
        #expect(loop.hasPendingWork())
        // The work runs on a task of its own; a deterministic loop takes what it posted when it steps.
        var seen: [(Probe.Output, SimTime)] = []
        while loop.hasPendingWork() {
            await loop.run(until: loop.now + .milliseconds(5)) { seen.append(($0, loop.now)) }
            await Task.yield()
        }
        #expect(seen.map(\.0).filter { $0 != .ticked("timer") } == [.ticked("x"), .ticked("y")], "in the order posted")
        #expect(seen.contains { $0.0 == .ticked("timer") && $0.1 == .milliseconds(5) }, "timers keep their times")
    }

    @Test func aLoopFollowingTheWallClockGoesOnFromItsTimeAndTakesPostsAsTheyCome() async {
        let (loop, _) = loop()
        loop.feed(.tick("virtual", after: .seconds(3))) { _ in }
        _ = await run(loop, until: .seconds(5))
        #expect(loop.now == .seconds(5))
        loop.followWallClock()
        let start = ContinuousClock.now
        loop.feed(.perform(["x", "y"])) { _ in }
        loop.feed(.tick("wall", after: .milliseconds(20))) { _ in }
        // Fed on the wall clock, an input comes at the time it is fed.
        let fedAt = loop.now
        var seen: [(Probe.Output, SimTime)] = []
        // With no limit, the loop runs while anything can still come: the timer and the work's posts.
        while await loop.step(notAfter: .max, perform: { seen.append(($0, loop.now)) }) {}
        let waited = ContinuousClock.now - start
        #expect(Set(seen.map(\.0)) == [.ticked("x"), .ticked("y"), .ticked("wall")])
        #expect(seen.map(\.0).filter { $0 != .ticked("wall") } == [.ticked("x"), .ticked("y")], "posts in the order posted")
        #expect(seen.allSatisfy { $0.1 >= .seconds(5) }, "the clock goes on from where it was, never back")
        #expect(fedAt >= .seconds(5))
        #expect(seen.first { $0.0 == .ticked("wall") }?.1 == fedAt + .milliseconds(20), "a timer fires at its time")
        #expect(waited >= .milliseconds(20), "which the wall clock reached: \(waited)")
        #expect(!loop.hasPendingWork())
    }

    @Test(.timeLimit(.minutes(1)))
    func workTheOwnerPerformsIsWaitedForAndWhatItPostsIsFedWhileAnswersGoOn() async {
        // As a download's database lookup beside its loop: the work waits for something (here a
        // gate the test opens once the loop has taken an answer), the loop goes on with answers.
        let loop = DriveLoop(machine: Probe(), loads: BackendLoads(.only(HangingNetwork())), timing: MeasuredDelivery(), delivery: .onArrival)
        let gate = AsyncStream<Void>.makeStream()
        loop.perform { post in
            for await _ in gate.stream { break }
            post(.ticked("looked up"))
        }
        loop.feed(.load(["fast"])) { _ in }
        var seen: [Probe.Output] = []
        while await loop.step(notAfter: .max, perform: {
            seen.append($0)
            if $0 == .answered("fast") { gate.continuation.yield() }
        }) {}
        #expect(seen == [.answered("fast"), .ticked("looked up")], "the answer is not held back by the work, whose post the loop waited for")
        #expect(!loop.hasPendingWork())
    }

    /// A network that answers `fast` at once and never answers anything else.
    private final class HangingNetwork: ResourceLoader {
        func load(_ resource: Resource) async -> Response {
            if resource.url == "fast" { return .success([1], source: .network) }
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) }
            return .failure(.other, "cancelled", source: .network)
        }

        func handles(_ url: String) -> Bool { true }
    }

    // The load never answers: a loop that waited for it would never return (the time limit fails it).
    @Test(.timeLimit(.minutes(1)))
    func aLoadThatNeverAnswersHoldsARunOnMeasuredTimeNoLongerThanItsLimit() async {
        // Over the real network, answers come after the real time their loads take: a load still
        // under way when that time passes the limit cannot answer by it, and is not waited for.
        let loop = DriveLoop(machine: Probe(), loads: BackendLoads(.only(HangingNetwork())), timing: MeasuredDelivery())
        loop.feed(.load(["hang", "fast"])) { _ in }
        let seen = await run(loop, until: .milliseconds(300))
        #expect(loop.now == .milliseconds(300), "the run ends at its limit")
        #expect(seen.map(\.0) == [.answered("fast")], "a later load's answer is not held back by the one that hangs")
        #expect(loop.hasPendingWork(), "the hanging load is still under way, for the caller to give up")
    }

    @Test(.timeLimit(.minutes(1)))
    func aLoopOnTheWallClockTakesABackendsAnswerAsItComesAndNoneOfALoadItGaveUp() async {
        // Each load hands its answer to the loop itself (one task a load); a load given up is cancelled, and its answer dropped.
        let loop = DriveLoop(machine: Probe(), loads: BackendLoads(.only(HangingNetwork())), timing: MeasuredDelivery(), delivery: .onArrival)
        var seen: [Probe.Output] = []
        loop.feed(.load(["fast", "hang", "fast"])) { seen.append($0) }
        loop.feed(.cancel(1)) { seen.append($0) }
        while await loop.step(notAfter: .max, perform: { seen.append($0) }) {}
        #expect(seen == [.answered("fast"), .answered("fast")])
        #expect(!loop.hasPendingWork(), "the load given up is nothing the loop waits for")
    }

    @Test(.timeLimit(.minutes(1)))
    func aLoopOnTheWallClockReturnsAtItsLimitWithALoadStillUnderWay() async {
        let loop = DriveLoop(machine: Probe(), loads: BackendLoads(.only(HangingNetwork())), timing: MeasuredDelivery(), delivery: .onArrival)
        loop.feed(.load(["hang"])) { _ in }
        var stepped = 0
        while await loop.step(notAfter: .milliseconds(200), perform: { _ in }) { stepped += 1 }
        #expect(stepped == 0 && loop.hasPendingWork(), "the load never answers: the loop returns at its limit, the load still under way")
    }
}
