import MapSim

/// A component with timed work of its own that runs on a map's virtual clock (live data, dynamic
/// entities): before anything of its own happens at time T, the map runs everything due before T,
/// so the two interleave in time order and a run gives the same trace every time. Without a map it
/// runs on its own clock.
protocol MapClockCompanion: Actor {
    /// The map whose clock it shares.
    var map: Map? { get }
    /// Its own clock's time.
    var companionNow: SimTime { get }
    /// When its next work is due; nil when none is.
    var nextDueTime: SimTime? { get }
    /// Moves its own clock forward to `time`.
    func advanceCompanionClock(to time: SimTime)
    /// Runs its work due at `time`, and sends what it caused to the map.
    func runDue(at time: SimTime) async
    /// Who hears its events when it runs without a map.
    var observer: (@Sendable (MapEvent) -> Void)? { get }
    /// Whether it waits for the map to settle (reach map-idle) after a change, to act then.
    func waitsForMapIdle() async -> Bool
    /// The map reached map-idle after a change it waited for.
    func mapSettled() async
}

extension MapClockCompanion {
    /// Sends its events into the map's stream, or to its observer when it runs without a map, as
    /// instants at its time.
    func send(_ payloads: [MapEventPayload]) async {
        guard !payloads.isEmpty else { return }
        if let map {
            await map.report(payloads)
        } else if let observer {
            for payload in payloads { observer(MapEvent(begin: companionNow, end: companionNow, payload: payload)) }
        }
    }

    /// Brings its clock to the map's.
    func synchronize() async {
        if let map { advanceCompanionClock(to: await map.now) }
    }

    /// Lets the map run everything due before `time`.
    func moveMap(to time: SimTime) async {
        guard let map else { return }
        let now = await map.now
        if time > now { await map.advance(by: time - now) }
    }

    func waitsForMapIdle() async -> Bool { false }

    func mapSettled() async {}

    /// Runs everything due in the next `duration`, the map's work and its own in time order; when
    /// it waits for the map to settle, it acts at the moment the map reaches map-idle.
    func advanceTogether(by duration: SimTime) async {
        await synchronize()
        let deadline = companionNow + duration
        while true {
            let next = min(nextDueTime ?? deadline, deadline)
            if let map, await waitsForMapIdle(), case .reached = await map.run(until: .mapIdle, timeout: max(.zero, next - (await map.now))) {
                await synchronize()
                await mapSettled()
                continue
            }
            guard let due = nextDueTime, due <= deadline else { break }
            await moveMap(to: due)
            await runDue(at: due)
        }
        await moveMap(to: deadline)
        advanceCompanionClock(to: deadline)
    }

    /// Runs the map and its own work until the map reaches `state`, or `timeout` passes.
    func runTogether(until state: Map.State, timeout: SimTime) async -> Map.RunOutcome {
        guard let map else { return .styleFailed("no map") }
        await synchronize()
        let deadline = companionNow + timeout
        while true {
            let limit = min(nextDueTime ?? deadline, deadline)
            let outcome = await map.run(until: state, timeout: limit - (await map.now))
            if case .timedOut = outcome, limit < deadline {
                await runDue(at: limit)
                continue
            }
            await synchronize()
            if state == .mapIdle, case .reached = outcome, await waitsForMapIdle() {
                // It acts once the map settles; waiting goes on until the map is idle after that too.
                await mapSettled()
                continue
            }
            return outcome
        }
    }
}
