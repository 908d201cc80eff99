import Testing
@testable import MapSim

@Suite("Scheduler")
struct SchedulerTests {
    @Test func ordersByTimeThenInsertion() {
        var scheduler = Scheduler<String>()
        scheduler.schedule("c", at: .milliseconds(5))
        scheduler.schedule("a", at: .milliseconds(1))
        scheduler.schedule("d", at: .milliseconds(5))
        scheduler.schedule("b", at: .milliseconds(1))
        var order: [String] = []
        while let (_, action) = scheduler.popNext(notAfter: .seconds(1)) { order.append(action) }
        #expect(order == ["a", "b", "c", "d"])
        #expect(scheduler.now == .milliseconds(5))
    }

    @Test func timeMovesOnlyToDueActions() {
        var scheduler = Scheduler<Int>()
        scheduler.schedule(1, at: .seconds(2))
        #expect(scheduler.popNext(notAfter: .seconds(1)) == nil)
        #expect(scheduler.now == .zero)
        scheduler.advance(to: .seconds(1))
        #expect(scheduler.now == .seconds(1))
        #expect(scheduler.popNext(notAfter: .seconds(2))?.action == 1)
        #expect(scheduler.now == .seconds(2))
    }

    @Test func pastTimesRunNowAndDiscardingKeepsOrderAndTime() {
        var scheduler = Scheduler<Int>()
        scheduler.advance(to: .seconds(3))
        for value in 0..<10 { scheduler.schedule(value, at: .seconds(1)) }
        scheduler.schedule(10, at: .seconds(9))
        scheduler.discardFirst()
        #expect(scheduler.first == 1 && scheduler.count == 10 && scheduler.now == .seconds(3))
        var seen: [Int] = []
        while let (time, value) = scheduler.popNext(notAfter: .seconds(3)) {
            #expect(time == .seconds(3))
            seen.append(value)
        }
        #expect(seen == Array(1..<10))
    }

    @Test func aReservedPlaceRunsAsIfScheduledWhenItWasReserved() {
        var scheduler = Scheduler<String>()
        let place = scheduler.reserveSequence()
        scheduler.schedule("later", at: .milliseconds(5))
        scheduler.schedule("reserved", at: .milliseconds(5), sequence: place)
        #expect(scheduler.next?.sequence == place)
        #expect(scheduler.popNext(notAfter: .seconds(1))?.action == "reserved")
        #expect(scheduler.popNext(notAfter: .seconds(1))?.action == "later")
    }

    @Test func simTimeFormatsMilliseconds() {
        #expect(SimTime(microseconds: 316_667).description == "316.667 ms")
        #expect(SimTime(microseconds: 5).description == "0.005 ms")
        #expect(SimTime.seconds(1.5) == .milliseconds(1500))
    }
}

@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test func matchesTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func sameSeedSameSequence() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
    }
}
