import Dispatch
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

    @Test func detachedWorkRuns() {
        let done = DispatchSemaphore(value: 0)
        let ran = Atomic<Bool>(false)
        ParallelThreads.detach {
            ran.store(true, ordering: .relaxed)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        let didRun = ran.load(ordering: .relaxed)
        #expect(didRun)
    }
}
