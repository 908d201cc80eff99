/// The render loop as a pure state machine: when frames happen (60 Hz while something changed or
/// animates), whether they are full, and when map-loaded and map-idle fire.
struct RenderModel: Sendable {
    /// What the `Map` must do after a frame: events to send after render-frame-finished, and the next frame.
    struct FrameOutcome: Sendable, Equatable {
        var finished: RenderFrameFinished
        var followUps: [MapEventPayload]
        var nextFrame: SimTime?
    }

    private(set) var scheduledFrame: SimTime?
    private(set) var lastFrame: SimTime?
    private(set) var hasFiredMapLoaded = false
    private(set) var isIdle = false
    private var dirty = false

    /// The time of the n-th tick of a 60 Hz display.
    static func tick(_ n: Int64) -> SimTime {
        SimTime(microseconds: n * 1_000_000 / 60)
    }

    /// The first 60 Hz tick at or after `now` and after the last frame.
    func nextTick(from now: SimTime) -> SimTime {
        var n = now.microseconds * 60 / 1_000_000
        while Self.tick(n) < now || lastFrame.map({ Self.tick(n) <= $0 }) == true { n += 1 }
        return Self.tick(n)
    }

    /// Something visible changed at `now`; returns the time of a frame to schedule, if none is yet.
    mutating func invalidate(at now: SimTime) -> SimTime? {
        dirty = true
        isIdle = false
        return scheduleFrame(from: now)
    }

    /// A new style starts loading: map-loaded may fire again.
    mutating func styleChanged() {
        hasFiredMapLoaded = false
        isIdle = false
    }

    /// A frame begins at `now`.
    mutating func beginFrame(at now: SimTime) {
        scheduledFrame = nil
        lastFrame = now
        dirty = false
    }

    /// Finishes the frame at `now` given what the load sequence drew.
    mutating func finishFrame(at now: SimTime, state: LoadSequence.FrameState) -> FrameOutcome {
        let needsRepaint = (state.animationEnd ?? now) > now
        let finished = RenderFrameFinished(renderMode: state.isFull ? .full : .partial, needsRepaint: needsRepaint,
                                           placementChanged: state.placementChanged)
        var followUps: [MapEventPayload] = []
        if state.isFull && !hasFiredMapLoaded {
            hasFiredMapLoaded = true
            followUps.append(.mapLoaded)
        }
        if state.isFull && !needsRepaint && !dirty && !isIdle {
            isIdle = true
            followUps.append(.mapIdle)
        }
        let next = needsRepaint || dirty ? scheduleFrame(from: now) : nil
        return FrameOutcome(finished: finished, followUps: followUps, nextFrame: next)
    }

    private mutating func scheduleFrame(from now: SimTime) -> SimTime? {
        guard scheduledFrame == nil else { return nil }
        let time = nextTick(from: now)
        scheduledFrame = time
        return time
    }
}
