import Foundation
import MapSim
import Synchronization
import Testing
@testable import MapSimCLI

@Suite("serve's recording off the event loops")
struct EventHandoffTests {
    /// An event told apart from the others by its time.
    static func event(_ number: Int) -> MapEvent {
        MapEvent(begin: SimTime(microseconds: Int64(number)), end: SimTime(microseconds: Int64(number)), payload: .mapIdle)
    }

    @Test func everyEventHandedOverIsDeliveredOnceInTheOrderItCame() async {
        let delivered = Mutex<[[MapEvent]]>([])
        // A turn an hour away: only `finish` delivers, so the test waits for no clock.
        let handoff = EventHandoff(interval: .seconds(3_600)) { events in delivered.withLock { $0.append(events) } }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<2 {
                group.addTask {
                    for index in 0..<1_000 { handoff.hand(Self.event(thread * 1_000_000 + index)) }
                }
            }
        }
        handoff.finish()
        let batches = delivered.withLock { $0 }
        #expect(batches.count == 1, "finish delivers what is left in one list")
        let times = batches.joined().map(\.begin.microseconds)
        #expect(times.count == 2_000)
        for thread in 0..<2 {
            let own = times.filter { $0 / 1_000_000 == Int64(thread) }.map { $0 % 1_000_000 }
            #expect(own == (0..<1_000).map(Int64.init), "each thread's events in the order it handed them over")
        }
    }

    @Test func anEventHandedOverAfterFinishIsDroppedAndFinishingTwiceDeliversNothingMore() {
        let delivered = Mutex<[MapEvent]>([])
        let handoff = EventHandoff(interval: .seconds(3_600)) { events in delivered.withLock { $0 += events } }
        handoff.hand(Self.event(1))
        handoff.finish()
        handoff.hand(Self.event(2))
        handoff.finish()
        #expect(delivered.withLock { $0 }.map(\.begin.microseconds) == [1])
    }

    @Test func aFullListIsDeliveredBeforeTheEventThatFilledItIsHandedOverSoMemoryStaysBounded() {
        let delivered = Mutex<[[Int64]]>([])
        let handoff = EventHandoff(interval: .seconds(3_600), limit: 3) { events in delivered.withLock { $0.append(events.map(\.begin.microseconds)) } }
        handoff.hand(Self.event(1))
        handoff.hand(Self.event(2))
        #expect(delivered.withLock { $0 }.isEmpty, "below the limit the events wait for the queue's turn")
        handoff.hand(Self.event(3))
        #expect(delivered.withLock { $0 } == [[1, 2, 3]], "the hand that fills the list returns once it is delivered")
        handoff.hand(Self.event(4))
        handoff.finish()
        #expect(delivered.withLock { $0 } == [[1, 2, 3], [4]])
    }

    @Test func theQueueDeliversOnItsOwnTurnsWithoutFinish() async {
        let (arrived, arrival) = AsyncStream<[MapEvent]>.makeStream()
        let handoff = EventHandoff(interval: .milliseconds(1)) { events in arrival.yield(events) }
        handoff.hand(Self.event(7))
        var received: [Int64] = []
        for await events in arrived {
            received += events.map(\.begin.microseconds)
            break
        }
        handoff.finish()
        #expect(received == [7])
    }
}
