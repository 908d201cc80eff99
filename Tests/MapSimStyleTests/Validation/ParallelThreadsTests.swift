import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import MapSimStyle

@Suite("ParallelThreads")
struct ParallelThreadsTests {
    @Test(arguments: [0, 1, 2, 5])
    func runCallsEveryIndexOnceAndReturnsWhenAllHaveReturned(count: Int) {
        let calls = Mutex<[Int]>([])
        ParallelThreads.run(count) { index in
            calls.withLock { $0.append(index) }
        }
        #expect(calls.withLock { $0.sorted() } == Array(0..<count))
    }

    @Test func theIndexesRunAtOnceEachOnAThreadOfItsOwn() {
        // Each index waits for every other to have started: run in turn, they would time out.
        let count = 3
        let arrived = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        let waitedOut = Atomic<Int>(0)
        ParallelThreads.run(count) { index in
            for _ in 1..<count { arrived[index].signal() }
            for other in 0..<count where other != index {
                if arrived[other].wait(timeout: .now() + 60) == .timedOut { waitedOut.add(1, ordering: .relaxed) }
            }
        }
        let timeOuts = waitedOut.load(ordering: .relaxed)
        #expect(timeOuts == 0)
    }

    @Test(arguments: [false, true])
    func detachedWorkRunsAtTheIdlePriorityWhenAskedTo(atIdlePriority: Bool) {
        let done = DispatchSemaphore(value: 0)
        let policy = Atomic<Int32>(-1)
        ParallelThreads.detach(atIdlePriority: atIdlePriority) {
            #if os(Linux)
            policy.store(sched_getscheduler(0), ordering: .relaxed)
            #else
            policy.store(0, ordering: .relaxed)
            #endif
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        let ran = policy.load(ordering: .relaxed)
        #if os(Linux)
        // SCHED_IDLE is 5, SCHED_OTHER 0 (<linux/sched.h>).
        #expect(ran == (atIdlePriority ? 5 : 0))
        #else
        #expect(ran == 0)
        #endif
    }
}
