import MapSim

/// A dynamic-entity data source's connection as a pure state machine, with ArcGIS's reconnect
/// schedule: after a lost connection it tries again 12 times — the first 2 at once, then every 10 s —
/// and then fails with the last error. A failure of the first connect is an error at once (the
/// source does not load), as in ArcGIS; so is a loss the feed says not to reconnect after.
public struct DynamicEntityConnection: StateMachine {
    /// When reconnect attempts are made.
    public struct Schedule: Sendable, Equatable {
        /// How many attempts after a loss before the source fails.
        public var attempts: Int
        /// How many of them are made at once.
        public var immediateAttempts: Int
        /// The wait before each of the others.
        public var interval: SimTime

        /// ArcGIS's schedule: 12 attempts, 2 at once, then every 10 s.
        public init(attempts: Int = 12, immediateAttempts: Int = 2, interval: SimTime = .seconds(10)) {
            self.attempts = attempts
            self.immediateAttempts = immediateAttempts
            self.interval = interval
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
            attempt = nil
            return move(to: .connecting) + [.connect]
        case .disconnect:
            guard status != .disconnected else { return [] }
            attempt = nil
            retryPending = false
            return [.disconnect] + move(to: .disconnected)
        case .connected:
            guard status == .connecting else { return [] }
            attempt = nil
            return move(to: .connected)
        case .connectFailed(let error):
            guard status == .connecting else { return [] }
            guard let current = attempt else { return move(to: .failed, error: error) }
            guard current < schedule.attempts else {
                attempt = nil
                return move(to: .failed, error: error)
            }
            if current < schedule.immediateAttempts { return tryAgain(number: current + 1, error: error) }
            retryPending = true
            lastError = error
            return [.scheduleRetry(at: now + schedule.interval)]
        case .connectionLost(let error, let shouldReconnect):
            guard status == .connected else { return [] }
            guard shouldReconnect, schedule.attempts > 0 else { return move(to: .failed, error: error) }
            return tryAgain(number: 1, error: error)
        case .retryDue:
            guard retryPending, status == .connecting, let current = attempt else { return [] }
            retryPending = false
            return tryAgain(number: current + 1, error: lastError)
        }
    }

    private mutating func tryAgain(number: Int, error: String?) -> [Action] {
        attempt = number
        let previous = status
        status = .connecting
        return [.emit(.connectionStatusChanged(.connecting, previous: previous, attempt: number, error: error)), .connect]
    }

    private mutating func move(to next: DynamicEntityConnectionStatus, error: String? = nil) -> [Action] {
        let previous = status
        status = next
        return [.emit(.connectionStatusChanged(next, previous: previous, attempt: nil, error: error))]
    }
}
