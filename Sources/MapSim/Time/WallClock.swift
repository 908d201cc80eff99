import Foundation

/// The wall-clock date of a run at each virtual time: the date at virtual time zero, plus the
/// virtual time. Expiry dates, `Retry-After`, cache times and content checks are reckoned with it.
///
/// A simulated run starts at a fixed date, `WallClock.simulated`, so that its traces repeat; a run on
/// the real network starts at today's date, so that dates from real servers mean what they say.
/// `LoadingEnvironment` is where that choice is made.
public struct WallClock: Sendable, Equatable {
    /// The date at virtual time zero.
    public var start: HTTPDate

    /// A clock that reads `start` at virtual time zero.
    public init(start: HTTPDate) {
        self.start = start
    }

    /// The clock of simulated runs: 2026-01-01T00:00:00Z at virtual time zero.
    public static let simulated = WallClock(start: HTTPDate(secondsSince1970: 1_767_225_600))

    /// A clock that reads today's date, to the second, at virtual time zero.
    public static func today() -> WallClock {
        WallClock(start: HTTPDate(secondsSince1970: Int64(Date().timeIntervalSince1970)))
    }

    /// The date at virtual time `time`, in whole seconds.
    public func date(at time: SimTime) -> HTTPDate {
        start.adding(seconds: time.microseconds / 1_000_000)
    }
}
