import MapSimStyle

/// The whole map as one pure state machine: the load sequence, the request pipeline and the render
/// model, wired together.
///
/// Each input returns the actions that need the outside world — loads, cache writes, timers, frames,
/// events — in the order the SDKs perform them. Actions that one machine addresses to another (a
/// request for the pipeline, a delivery for the load sequence, an invalidation for the render
/// model) are routed here, depth first, and never reach the caller. No I/O, no clock: the same
/// inputs at the same times give the same actions, so tests drive it directly.
struct MapMachine: Sendable {
    private(set) var sequence: LoadSequence
    private(set) var pipeline: RequestPipeline
    private(set) var render = RenderModel()
    /// Requests of components attached to the map, waiting for their first answer.
    private var fetches: Set<RequestID> = []
    /// Invalidations during a frame are part of it, not a reason for another.
    private var inFrame = false
    private var output: [MapAction] = []

    /// A map looking at `camera` through `viewport`, loading through a pipeline configured by `pipeline`.
    init(camera: Camera, viewport: Viewport, options: LoadSequence.Options, pipeline: RequestPipeline.Configuration) {
        sequence = LoadSequence(camera: camera, viewport: viewport, options: options)
        self.pipeline = RequestPipeline(configuration: pipeline)
    }

    /// Feeds `input` at `now`; returns what the `Map` actor must do.
    mutating func handle(_ input: MapInput, at now: SimTime) -> [MapAction] {
        switch input {
        case .setStyleURL(let url):
            render.styleChanged()
            sequence.setStyleURL(url)
        case .setStyleJSON(let json, let baseURL):
            render.styleChanged()
            sequence.setStyleJSON(json, baseURL: baseURL)
        case .setCamera(let options):
            sequence.setCamera(options)
        case .setViewport(let viewport):
            sequence.setViewport(viewport)
        case .addImage(let id):
            sequence.addImage(id: id)
        case .setOffline(let offline):
            guard offline != pipeline.isOffline else { break }
            pipeline.setOffline(offline, at: now)
            route(pipeline.takeActions(), at: now)
            // Reconnecting restarts requests: the map is busy again until they settle.
            if !offline { output += render.invalidate(at: now) }
        case .answer(let id, let attempt, let response, let backend):
            pipeline.answer(response, for: id, attempt: attempt, from: backend, at: now)
            route(pipeline.takeActions(), at: now)
        case .timer(let id):
            pipeline.timerFired(for: id, at: now)
            route(pipeline.takeActions(), at: now)
        case .geoJSONUpdateParsed(let source, let token):
            sequence.finishGeoJSONUpdate(source: source, token: token, at: now)
        case .frame:
            renderFrame(at: now)
        }
        route(sequence.takeActions(), at: now)
        defer { output = [] }
        return output
    }

    /// Adds a source at run time (source-added, then its metadata loads).
    mutating func addSource(_ source: StyleSource, at now: SimTime) throws(LoadingError) -> [MapAction] {
        try sequence.addSource(source)
        return flush(at: now)
    }

    /// Removes a source no layer uses (source-removed; its requests are cancelled).
    mutating func removeSource(id: String, at now: SimTime) throws(LoadingError) -> [MapAction] {
        try sequence.removeSource(id: id)
        return flush(at: now)
    }

    /// Changes features of a GeoJSON source; the change is applied when the worker is done with it.
    mutating func updateGeoJSONSource(id: String, diff: GeoJSONSourceDiff, dataID: String?, at now: SimTime) throws(LoadingError) -> [MapAction] {
        try sequence.updateGeoJSON(source: id, diff: diff, dataID: dataID, at: now)
        return flush(at: now)
    }

    /// Loads `resource` through the pipeline for a component attached to the map (not the load
    /// sequence, so a new style does not cancel it); its first answer comes back as `.fetched`, and
    /// whatever the pipeline would do next (a retry, waiting for the connection) is cancelled.
    mutating func fetch(_ resource: Resource, at now: SimTime) -> (RequestID, [MapAction]) {
        let id = sequence.allocateRequestID()
        fetches.insert(id)
        pipeline.request(id, resource, at: now)
        route(pipeline.takeActions(), at: now)
        return (id, flush(at: now))
    }

    /// Gives up a fetch that has had no answer.
    mutating func cancelFetch(_ id: RequestID, at now: SimTime) -> [MapAction] {
        guard fetches.remove(id) != nil else { return [] }
        pipeline.cancel(id, at: now)
        route(pipeline.takeActions(), at: now)
        return flush(at: now)
    }

    /// Whether `state` holds now.
    func isInState(_ state: Map.State) -> Bool {
        switch state {
        case .styleLoaded: sequence.isStyleLoaded
        case .mapLoaded: render.hasFiredMapLoaded
        case .mapIdle: render.isIdle
        }
    }

    private mutating func flush(at now: SimTime) -> [MapAction] {
        route(sequence.takeActions(), at: now)
        defer { output = [] }
        return output
    }

    /// A frame: the render update requests and cancels tiles, then the frame draws what is loaded.
    private mutating func renderFrame(at now: SimTime) {
        render.beginFrame(at: now)
        inFrame = true
        sequence.updateTiles()
        route(sequence.takeActions(), at: now)
        output.append(.emit(.renderFrameStarted))
        let state = sequence.renderFrame(at: now)
        route(sequence.takeActions(), at: now)
        inFrame = false
        output += render.finishFrame(at: now, state: state)
    }

    /// Passes each action to the machine it is for, depth first; keeps the rest for the actor.
    private mutating func route(_ actions: [MapAction], at now: SimTime) {
        for action in actions {
            switch action {
            case .request(let id, let resource):
                pipeline.request(id, resource, at: now)
                route(pipeline.takeActions(), at: now)
            case .cancelRequest(let id):
                pipeline.cancel(id, at: now)
                route(pipeline.takeActions(), at: now)
            case .deliver(let id, let response, let final) where fetches.contains(id):
                fetches.remove(id)
                if !final {
                    pipeline.cancel(id, at: now)
                    route(pipeline.takeActions(), at: now)
                }
                output.append(.fetched(id, response))
            case .deliver(let id, let response, let final):
                sequence.receive(response, for: id, final: final)
                route(sequence.takeActions(), at: now)
            case .invalidate:
                if !inFrame { output += render.invalidate(at: now) }
            case .load, .cancelLoad, .store, .refreshCache, .scheduleTimer, .scheduleGeoJSONUpdate, .scheduleFrame, .emit, .fetched:
                output.append(action)
            }
        }
    }
}
