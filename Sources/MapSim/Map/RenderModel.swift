/// The render loop as a pure state machine: when frames happen (60 Hz while something changed or
/// animates), whether they are full, and when map-loaded and map-idle fire. Its outputs are
/// `MapAction`s: frames to schedule and the events that close a frame.
struct RenderModel: Sendable {
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

    /// Something visible changed at `now`: schedules a frame, if none is yet.
    mutating func invalidate(at now: SimTime) -> [MapAction] {
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

    /// Finishes the frame at `now` given what the load sequence drew: render-frame-finished, then
    /// map-loaded and map-idle when they are due, then the next frame if one is needed.
    mutating func finishFrame(at now: SimTime, state: LoadSequence.FrameState) -> [MapAction] {
        let needsRepaint = (state.animationEnd ?? now) > now
        let finished = RenderFrameFinished(renderMode: state.isFull ? .full : .partial, needsRepaint: needsRepaint,
                                           placementChanged: state.placementChanged)
        var actions: [MapAction] = [.emit(.renderFrameFinished(finished))]
        if state.isFull && !hasFiredMapLoaded {
            hasFiredMapLoaded = true
            actions.append(.emit(.mapLoaded))
        }
        if state.isFull && !needsRepaint && !dirty && !isIdle {
            isIdle = true
            actions.append(.emit(.mapIdle))
        }
        return actions + (needsRepaint || dirty ? scheduleFrame(from: now) : [])
    }

    private mutating func scheduleFrame(from now: SimTime) -> [MapAction] {
        guard scheduledFrame == nil else { return [] }
        let time = nextTick(from: now)
        scheduledFrame = time
        return [.scheduleFrame(at: time)]
    }
}
