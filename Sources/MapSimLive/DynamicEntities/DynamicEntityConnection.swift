import MapSim

/// A dynamic-entity data source's connection as a pure state machine, with ArcGIS's reconnect
/// schedule: after a lost connection it tries again 12 times — the first 2 at once, then every 10 s —
/// and then fails with the last error. A failure of the first connect is an error at once (the
/// source does not load), as in ArcGIS; so is a loss the feed says not to reconnect after.
///
/// Only a connection that stayed up for `Schedule.stableAfter` (30 s) starts the schedule afresh
/// when it is lost. A shorter one — a server that accepts, sends a little and closes — counts as
/// the next failed attempt, so back-off applies and such a server sees at most 3 connections in
/// 10 s (not ArcGIS's "first 2 at once" for ever), and the source fails after the 12th.
public struct DynamicEntityConnection: StateMachine {
    /// When reconnect attempts are made.
    public struct Schedule: Sendable, Equatable {
        /// How many attempts after a loss before the source fails.
        public var attempts: Int
        /// How many of them are made at once.
        public var immediateAttempts: Int
        /// The wait before each of the others.
        public var interval: SimTime
        /// How long a connection must stay up for its loss to start the schedule afresh.
        public var stableAfter: SimTime

        /// ArcGIS's schedule: 12 attempts, 2 at once, then every 10 s; a connection is stable after 30 s.
        public init(attempts: Int = 12, immediateAttempts: Int = 2, interval: SimTime = .seconds(10), stableAfter: SimTime = .seconds(30)) {
            self.attempts = attempts
            self.immediateAttempts = immediateAttempts
            self.interval = interval
            self.stableAfter = stableAfter
        }
    }

    /// What happens to the connection.
    public enum Input: Sendable, Equatable {
        /// The user connects the source.
        case connect
        /// The user disconnects it.
        case disconnect
        /// The transport connected.
        case connected
        /// Connecting failed.
        case connectFailed(String)
        /// An open connection was lost; `shouldReconnect` is what the feed says.
        case connectionLost(String, shouldReconnect: Bool)
        /// The wait before the next attempt is over.
        case retryDue
    }

    /// What the connection asks of its executor.
    public enum Action: Sendable, Equatable {
        case connect
        case disconnect
        case scheduleRetry(at: SimTime)
        case emit(DynamicEntityEvent)
    }

    public let schedule: Schedule
    public private(set) var status = DynamicEntityConnectionStatus.disconnected
    /// The reconnect attempt under way (1-based); nil when not reconnecting.
    public private(set) var attempt: Int?
    /// The reconnect attempts made since the schedule last started afresh.
    private var attemptsMade = 0
    /// When the open connection was made.
    private var connectedAt: SimTime?
    private var retryPending = false
    /// The error that ended the previous attempt, reported with the next one.
    private var lastError: String?

    /// A connection with `schedule`.
    public init(schedule: Schedule = .init()) {
        self.schedule = schedule
    }

    /// Handles `input` at `now`.
    public mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .connect:
            guard status == .disconnected || status == .failed else { return [] }
            startAfresh()
            return move(to: .connecting) + [.connect]
        case .disconnect:
            guard status != .disconnected else { return [] }
            startAfresh()
            return [.disconnect] + move(to: .disconnected)
        case .connected:
            guard status == .connecting else { return [] }
            attempt = nil
            connectedAt = now
            return move(to: .connected)
        case .connectFailed(let error):
            guard status == .connecting else { return [] }
            guard attempt != nil else { return fail(error) }
            return retry(after: error, at: now)
        case .connectionLost(let error, let shouldReconnect):
            guard status == .connected else { return [] }
            guard shouldReconnect, schedule.attempts > 0 else { return fail(error) }
            if let connectedAt, now - connectedAt >= schedule.stableAfter { attemptsMade = 0 }
            connectedAt = nil
            return retry(after: error, at: now)
        case .retryDue:
            guard retryPending, status == .connecting else { return [] }
            retryPending = false
            return tryAgain(error: lastError)
        }
    }

    /// The next attempt after `error`: at once, after the interval, or none (failed) when the
    /// schedule is spent.
    private mutating func retry(after error: String, at now: SimTime) -> [Action] {
        guard attemptsMade < schedule.attempts else { return fail(error) }
        if attemptsMade < schedule.immediateAttempts { return tryAgain(error: error) }
        retryPending = true
        lastError = error
        let waiting = status == .connecting ? [] : move(to: .connecting, error: error)
        return waiting + [.scheduleRetry(at: now + schedule.interval)]
    }

    private mutating func tryAgain(error: String?) -> [Action] {
        attemptsMade += 1
        attempt = attemptsMade
        let previous = status
        status = .connecting
        return [.emit(.connectionStatusChanged(.connecting, previous: previous, attempt: attemptsMade, error: error)), .connect]
    }

    private mutating func fail(_ error: String) -> [Action] {
        startAfresh()
        return move(to: .failed, error: error)
    }

    private mutating func startAfresh() {
        attempt = nil
        attemptsMade = 0
        connectedAt = nil
        retryPending = false
        lastError = nil
    }

    private mutating func move(to next: DynamicEntityConnectionStatus, error: String? = nil) -> [Action] {
        let previous = status
        status = next
        return [.emit(.connectionStatusChanged(next, previous: previous, attempt: nil, error: error))]
    }
}
