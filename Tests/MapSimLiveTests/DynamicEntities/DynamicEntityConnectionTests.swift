import Testing
import MapSim
@testable import MapSimLive

@Suite("DynamicEntityConnection")
struct DynamicEntityConnectionTests {
    @Test func reconnectsTwelveTimesTwoAtOnceThenEveryTenSecondsThenFails() {
        var connection = DynamicEntityConnection()
        _ = connection.handle(.connect, at: .zero)
        _ = connection.handle(.connected, at: .zero)
        var now = SimTime.seconds(5)
        var attempts: [(Int, SimTime)] = []
        var actions = connection.handle(.connectionLost("gone", shouldReconnect: true), at: now)
        while true {
            for case .emit(.connectionStatusChanged(_, _, let attempt?, _)) in actions { attempts.append((attempt, now)) }
            if actions.contains(.connect) {
                actions = connection.handle(.connectFailed("refused"), at: now)
            } else if case .scheduleRetry(let due)? = actions.first {
                now = due
                actions = connection.handle(.retryDue, at: now)
            } else {
                break
            }
        }
        #expect(attempts.map(\.0) == Array(1...12))
        #expect(attempts.map { ($0.1 - .seconds(5)).microseconds / 1_000_000 } == [0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
        #expect(connection.status == .failed)
        #expect(actions == [.emit(.connectionStatusChanged(.failed, previous: .connecting, attempt: nil, error: "refused"))])
    }

    @Test func theFirstConnectFailingIsAnErrorAndALossNotToRetryFails() {
        var connection = DynamicEntityConnection()
        _ = connection.handle(.connect, at: .zero)
        #expect(connection.handle(.connectFailed("no"), at: .zero) == [.emit(.connectionStatusChanged(.failed, previous: .connecting, attempt: nil, error: "no"))])
        _ = connection.handle(.connect, at: .zero)
        _ = connection.handle(.connected, at: .zero)
        _ = connection.handle(.connectionLost("bye", shouldReconnect: false), at: .zero)
        #expect(connection.status == .failed)
    }

    @Test func disconnectingStopsReconnectingAndAConnectAfterAFailureStartsAfresh() {
        var connection = DynamicEntityConnection()
        _ = connection.handle(.connect, at: .zero)
        _ = connection.handle(.connected, at: .zero)
        _ = connection.handle(.connectionLost("gone", shouldReconnect: true), at: .zero)
        #expect(connection.attempt == 1)
        #expect(connection.handle(.disconnect, at: .zero) == [.disconnect, .emit(.connectionStatusChanged(.disconnected, previous: .connecting, attempt: nil, error: nil))])
        #expect(connection.handle(.retryDue, at: .seconds(10)).isEmpty && connection.handle(.disconnect, at: .seconds(10)).isEmpty)
        #expect(connection.handle(.connect, at: .seconds(11)) == [.emit(.connectionStatusChanged(.connecting, previous: .disconnected, attempt: nil, error: nil)), .connect])
        #expect(connection.handle(.connect, at: .seconds(11)).isEmpty, "already connecting")
    }

    /// Runs a server that accepts and drops each connection `stayingUp` after it was made, for
    /// `duration`; returns when each connection was made.
    private static func connections(stayingUp: SimTime, for duration: SimTime) -> (times: [SimTime], connection: DynamicEntityConnection) {
        var connection = DynamicEntityConnection()
        var now = SimTime.zero
        var times: [SimTime] = []
        var actions = connection.handle(.connect, at: now)
        while now <= duration {
            if actions.contains(.connect) {
                times.append(now)
                _ = connection.handle(.connected, at: now)
                now = now + stayingUp
                actions = connection.handle(.connectionLost("closed", shouldReconnect: true), at: now)
            } else if case .scheduleRetry(let due)? = actions.last {
                now = due
                actions = connection.handle(.retryDue, at: now)
            } else {
                break
            }
        }
        return (times, connection)
    }

    @Test func aConnectionLostBeforeItWasStableIsTheNextFailedAttempt() {
        let (times, connection) = Self.connections(stayingUp: .milliseconds(5), for: .seconds(300))
        #expect(times.count { $0 <= .seconds(10) } == 3, "the first connection and 2 at once; then every 10 s")
        #expect(times.count == 13, "the first and 12 attempts")
        #expect(connection.status == .failed)
    }

    @Test func aConnectionThatStayedUpStartsTheScheduleAfresh() {
        let (times, connection) = Self.connections(stayingUp: .seconds(30), for: .seconds(300))
        #expect(times.count == 11, "every connection stayed up 30 s and was made again at once")
        #expect(connection.status != .failed)
        var short = DynamicEntityConnection()
        _ = short.handle(.connect, at: .zero)
        _ = short.handle(.connected, at: .zero)
        _ = short.handle(.connectionLost("closed", shouldReconnect: true), at: .seconds(1))
        _ = short.handle(.connected, at: .seconds(1))
        _ = short.handle(.connectionLost("closed", shouldReconnect: true), at: .seconds(2))
        _ = short.handle(.connected, at: .seconds(2))
        let waiting = short.handle(.connectionLost("closed", shouldReconnect: true), at: .seconds(3))
        #expect(waiting == [.emit(.connectionStatusChanged(.connecting, previous: .connected, attempt: nil, error: "closed")), .scheduleRetry(at: .seconds(13))])
    }
}
