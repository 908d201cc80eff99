import NIOCore
import NIOPosix
import Synchronization

/// When each exchange in flight must be over, kept by one timer for all of them: it fires at the
/// earliest deadline, cancels whatever has passed its own, and is set again for the next.
///
/// AsyncHTTPClient's own deadline is a timer on an event loop per request, scheduled from the
/// caller's thread and cancelled from it again: two wake-ups of the loop's thread and a search of
/// its timer heap for every request, a tenth of a region download's time in its threads. Here a
/// request costs a lock and a table entry, and the timer is set once per deadline that passes with
/// exchanges still in flight. It runs on an event loop, as AsyncHTTPClient's did, so that no
/// amount of work on Swift's task threads holds it back.
final class ExchangeDeadlines: Sendable {
    private struct Watched {
        let deadline: NIODeadline
        let cancel: @Sendable () -> Void
    }

    private struct State {
        var watched: [Int: Watched] = [:]
        var nextID = 0
        /// When the timer is set to fire, if it is: not once nothing is left to watch.
        var firesAt: NIODeadline?
        var isStopped = false
    }

    private let state = Mutex(State())

    /// Watches an exchange that `cancel` ends, until `deadline`; the number to pass to `finish(_:)`.
    func watch(until deadline: NIODeadline, cancel: @escaping @Sendable () -> Void) -> Int {
        let (id, setsTimer) = state.withLock { state -> (Int, Bool) in
            let id = state.nextID
            state.nextID += 1
            state.watched[id] = Watched(deadline: deadline, cancel: cancel)
            // The timer is set again only for a deadline earlier than its own: a loader allows
            // every exchange the same time, so that is only when nothing was watched.
            let setsTimer = !state.isStopped && state.firesAt.map { deadline < $0 } ?? true
            if setsTimer { state.firesAt = deadline }
            return (id, setsTimer)
        }
        if setsTimer { set(at: deadline) }
        return id
    }

    /// Ends the watch of exchange `id`; false when its deadline had passed and it was cancelled.
    func finish(_ id: Int) -> Bool {
        state.withLock { $0.watched.removeValue(forKey: id) != nil }
    }

    /// Stops watching for good: a loader that is shut down answers nothing more.
    func stop() {
        state.withLock { $0.isStopped = true }
    }

    private func set(at deadline: NIODeadline) {
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(deadline: deadline) { self.fire(setFor: deadline) }
    }

    /// Cancels the exchanges past their deadlines and sets the timer for the earliest of the rest;
    /// a timer that an earlier one replaced does nothing.
    private func fire(setFor deadline: NIODeadline) {
        let now = NIODeadline.now()
        let (overdue, next) = state.withLock { state -> ([Watched], NIODeadline?) in
            guard state.firesAt == deadline else { return ([], nil) }
            let overdue = state.watched.filter { $0.value.deadline <= now }
            for id in overdue.keys { state.watched.removeValue(forKey: id) }
            state.firesAt = state.isStopped ? nil : state.watched.values.lazy.map { $0.deadline }.min()
            return (Array(overdue.values), state.firesAt)
        }
        for exchange in overdue { exchange.cancel() }
        if let next { set(at: next) }
    }
}
