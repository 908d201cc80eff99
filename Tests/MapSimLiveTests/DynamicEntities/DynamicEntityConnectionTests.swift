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
}
