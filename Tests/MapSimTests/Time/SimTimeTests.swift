import Testing
@testable import MapSim

/// Virtual time: exact microseconds, held at the ends of its range rather than wrapping, so that a
/// server's "never expires" is a time no run reaches.
@Suite("SimTime")
struct SimTimeTests {
    @Test func secondsRoundToTheMicrosecondAndAreHeldAtTheEnds() {
        #expect(SimTime.seconds(1.5) == SimTime(microseconds: 1_500_000))
        #expect(SimTime.seconds(0.000_000_4) == .zero && SimTime.seconds(-0.25) == SimTime(microseconds: -250_000))
        #expect(SimTime.seconds(9.3e12) == .max && SimTime.seconds(.infinity) == .max)
        #expect(SimTime.seconds(-9.3e12) == SimTime(microseconds: .min) && SimTime.seconds(-.infinity) == SimTime(microseconds: .min))
        #expect(SimTime.seconds(.nan) == .zero)
    }

    @Test func sumsAndDifferencesAreExactAndHeldAtTheEnds() {
        #expect(SimTime.seconds(2) + .milliseconds(5) == SimTime(microseconds: 2_005_000))
        #expect(SimTime.seconds(2) - .milliseconds(5) == SimTime(microseconds: 1_995_000))
        #expect(SimTime.seconds(30) + .max == .max && SimTime.max + .max == .max)
        #expect(SimTime(microseconds: .min) + SimTime(microseconds: -1) == SimTime(microseconds: .min))
        #expect(SimTime.max - SimTime(microseconds: -1) == .max && SimTime(microseconds: .min) - .seconds(1) == SimTime(microseconds: .min))
    }

    @Test func aWallClockDateIsHeldAtTheEndOfTime() {
        let clock = WallClock(start: HTTPDate(secondsSince1970: .max - 10))
        #expect(clock.date(at: .seconds(4)) == HTTPDate(secondsSince1970: .max - 6))
        #expect(clock.date(at: .seconds(20)) == HTTPDate(secondsSince1970: .max))
    }
}
