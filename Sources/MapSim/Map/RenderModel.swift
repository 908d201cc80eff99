/// The render loop as a pure state machine: when frames happen (60 Hz while something changed or
/// animates), whether they are full, and when map-loaded and map-idle fire. Its actions are frames to
/// schedule and the events that close a frame.
struct RenderModel: StateMachine {
    /// What happens to the render loop.
    enum Input: Sendable, Equatable {
        /// Something visible changed: a frame is needed.
        case invalidate
        /// A new style starts loading: map-loaded may fire again.
        case styleChanged
        /// A frame begins.
        case beginFrame
        /// The frame drew what the load sequence says.
        case finishFrame(LoadSequence.FrameState)
    }

    /// What the render loop asks for.
    enum Action: Sendable, Equatable {
        /// Feed a frame at this time.
        case scheduleFrame(at: SimTime)
        /// Send this event.
        case emit(MapEventPayload)
    }

    private(set) var scheduledFrame: SimTime?
    private(set) var lastFrame: SimTime?
    private(set) var hasFiredMapLoaded = false
    private(set) var isIdle = false
    /// map-idle has been sent once (for this map, whatever style it loads since).
    private(set) var hasFiredMapIdle = false
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

    mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .invalidate:
            // A frame is scheduled, if none is yet.
            dirty = true
            isIdle = false
            return scheduleFrame(from: now)
        case .styleChanged:
            hasFiredMapLoaded = false
            isIdle = false
            return []
        case .beginFrame:
            scheduledFrame = nil
            lastFrame = now
            dirty = false
            return []
        case .finishFrame(let state):
            guard lastFrame == now else {
                preconditionFailure("a frame finished at \(now), but the last one began at \(lastFrame.map { "\($0)" } ?? "no time"): a frame ends when it began")
            }
            return finishFrame(at: now, state: state)
        }
    }

    /// Finishes the frame at `now` given what the load sequence drew: render-frame-finished, then
    /// map-loaded and map-idle when they are due, then the next frame if one is needed.
    private mutating func finishFrame(at now: SimTime, state: LoadSequence.FrameState) -> [Action] {
        let needsRepaint = (state.animationEnd ?? now) > now
        let finished = RenderFrameFinished(renderMode: state.isFull ? .full : .partial, needsRepaint: needsRepaint,
                                           placementChanged: state.placementChanged)
        var actions: [Action] = [.emit(.renderFrameFinished(finished))]
        if state.isFull && !hasFiredMapLoaded {
            hasFiredMapLoaded = true
            actions.append(.emit(.mapLoaded))
        }
        if state.isFull && !needsRepaint && !dirty && !isIdle && !state.holdsIdle {
            isIdle = true
            hasFiredMapIdle = true
            actions.append(.emit(.mapIdle))
        }
        return actions + (needsRepaint || dirty ? scheduleFrame(from: now) : [])
    }

    private mutating func scheduleFrame(from now: SimTime) -> [Action] {
        guard scheduledFrame == nil else { return [] }
        let time = nextTick(from: now)
        scheduledFrame = time
        return [.scheduleFrame(at: time)]
    }
}
