import MapSimStyle

/// The whole map as one pure state machine: the load sequence, the request pipeline and the render
/// model, wired together, with the one table of the map's requests.
///
/// Each input returns what the outside world must do — loads, timers and frames for the drive loop,
/// events and cache writes for the `Map` actor — in the order the SDKs do it. What one machine
/// addresses to another (a request for the pipeline, a delivery for the load sequence, an
/// invalidation for the render model) is routed here, depth first, and never leaves. No I/O, no
/// clock: the same inputs at the same times give the same actions, so tests drive it directly.
struct MapMachine: DrivenMachine {
    typealias Input = MapInput
    typealias Output = MapOutput

    private(set) var sequence: LoadSequence
    private(set) var pipeline: RequestPipeline
    private(set) var render = RenderModel()
    /// The reader of `pmtiles://` sources, between the load sequence and the pipeline.
    private(set) var archives = PMTilesReader()
    /// Every request under way: its id, resource and purpose.
    private(set) var requests = RequestTable()
    /// Invalidations during a frame are part of it, not a reason for another.
    private var inFrame = false

    /// A map looking at `camera` through `viewport`, with `options`.
    init(camera: Camera, viewport: Viewport, options: Map.Options) {
        sequence = LoadSequence(camera: camera, viewport: viewport, options: options)
        pipeline = RequestPipeline(configuration: options.pipeline)
    }

    static func input(for answer: LoadAnswer) -> MapInput { .answer(answer) }

    mutating func handle(_ input: MapInput, at now: SimTime) -> [Action] {
        var actions: [Action] = []
        switch input {
        case .start:
            actions += route(pipeline.handle(.start, at: now), at: now)
        case .setStyleURL(let url):
            actions += route(render.handle(.styleChanged, at: now), at: now)
            actions += route(sequence.handle(.setStyleURL(url), at: now), at: now)
        case .setStyleJSON(let json, let baseURL):
            actions += route(render.handle(.styleChanged, at: now), at: now)
            actions += route(sequence.handle(.setStyleJSON(json, baseURL: baseURL), at: now), at: now)
        case .setCamera(let options):
            actions += route(sequence.handle(.setCamera(options), at: now), at: now)
        case .setViewport(let viewport):
            actions += route(sequence.handle(.setViewport(viewport), at: now), at: now)
        case .addImage(let id):
            actions += route(sequence.handle(.addImage(id), at: now), at: now)
        case .addSource(let source):
            actions += route(sequence.handle(.addSource(source), at: now), at: now)
        case .removeSource(let id):
            actions += route(sequence.handle(.removeSource(id), at: now), at: now)
        case .addLayer(let layer, let before):
            actions += route(sequence.handle(.addLayer(layer, before: before), at: now), at: now)
        case .removeLayer(let id):
            actions += route(sequence.handle(.removeLayer(id), at: now), at: now)
        case .setGlobalState(let name, let value):
            actions += route(sequence.handle(.setGlobalState(name, value), at: now), at: now)
        case .setConfig(let importID, let name, let value):
            actions += route(sequence.handle(.setConfig(importID: importID, name: name, value: value), at: now), at: now)
        case .updateGeoJSONSource(let id, let diff, let dataID):
            actions += route(sequence.handle(.updateGeoJSON(source: id, diff: diff, dataID: dataID), at: now), at: now)
        case .setOffline(let offline):
            guard offline != pipeline.isOffline else { break }
            actions += route(pipeline.handle(.setOffline(offline), at: now), at: now)
            // Reconnecting restarts requests: the map is busy again until they settle.
            if !offline { actions += route(render.handle(.invalidate, at: now), at: now) }
        case .fetch(let token, let resource, let timeout):
            let id = requests.add(.fetch(token), resource)
            actions += route(pipeline.handle(.request(id, resource), at: now), at: now)
            actions.append(.schedule(.fetchDeadline(token, timeout: timeout), at: now + timeout))
        case .fetchDeadline(let token, let timeout):
            guard let id = requests.remove(.fetch(token)) else { break }
            actions += route(pipeline.handle(.cancel(id), at: now), at: now)
            actions.append(.output(.fetched(token, .failure(.connection, "no answer within \(timeout)", source: .network))))
        case .answer(let answer):
            actions += route(pipeline.handle(.answer(answer), at: now), at: now)
        case .timer(let id):
            actions += route(pipeline.handle(.timer(id), at: now), at: now)
        case .geoJSONUpdateParsed(let source, let token):
            actions += route(sequence.handle(.finishGeoJSONUpdate(source: source, token: token), at: now), at: now)
        case .rootLayoutDue(let token):
            actions += route(sequence.handle(.layOutRootTiles(token: token), at: now), at: now)
        case .frame:
            actions += renderFrame(at: now)
        case .giveUp(let reason):
            actions += route(pipeline.handle(.giveUp(reason), at: now), at: now)
        }
        return actions
    }

    /// Whether `state` holds now.
    func isInState(_ state: Map.State) -> Bool {
        switch state {
        case .styleLoaded: sequence.isStyleLoaded
        case .mapLoaded: render.hasFiredMapLoaded
        case .mapIdle: render.isIdle
        }
    }

    /// A frame: the render update requests and cancels tiles, then the frame draws what is loaded.
    private mutating func renderFrame(at now: SimTime) -> [Action] {
        var actions: [Action] = []
        actions += route(render.handle(.beginFrame, at: now), at: now)
        inFrame = true
        actions += route(sequence.handle(.updateTiles, at: now), at: now)
        actions.append(.output(.emit(.renderFrameStarted)))
        var drawn = LoadSequence.FrameState(isFull: false, placementChanged: false, animationEnd: nil)
        for action in sequence.handle(.drawFrame(afterFirstIdle: render.hasFiredMapIdle), at: now) {
            if case .drew(let state) = action { drawn = state } else { actions += route([action], at: now) }
        }
        inFrame = false
        actions += route(render.handle(.finishFrame(drawn), at: now), at: now)
        return actions
    }

    /// Routes what the load sequence asks for: requests to the pipeline, through the request table.
    private mutating func route(_ sequenceActions: [LoadSequence.Action], at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for action in sequenceActions {
            switch action {
            case .request(let purpose, let resource) where PMTilesReader.reads(resource.url):
                actions += route(archives.handle(.request(purpose, resource), at: now), at: now)
            case .request(let purpose, let resource):
                let id = requests.add(purpose, resource)
                actions += route(pipeline.handle(.request(id, resource), at: now), at: now)
            case .cancel(let purpose) where archives.isReading(purpose):
                actions += route(archives.handle(.cancel(purpose), at: now), at: now)
            case .cancel(let purpose):
                guard let id = requests.remove(purpose) else { continue }
                actions += route(pipeline.handle(.cancel(id), at: now), at: now)
            case .cancelStyleLoad:
                actions += route(archives.handle(.cancelAll, at: now), at: now)
                for id in requests.removeStyleLoad() { actions += route(pipeline.handle(.cancel(id), at: now), at: now) }
            case .emit(let payload):
                actions.append(.output(.emit(payload)))
            case .invalidate:
                if !inFrame { actions += route(render.handle(.invalidate, at: now), at: now) }
            case .scheduleGeoJSONUpdate(let source, let token, let time):
                actions.append(.schedule(.geoJSONUpdateParsed(source: source, token: token), at: time))
            case .scheduleRootLayout(let token, let delay):
                actions.append(.schedule(.rootLayoutDue(token: token), at: now + delay))
            case .refuse(let error):
                actions.append(.output(.refused(error)))
            case .drew:
                continue
            }
        }
        return actions
    }

    /// Routes what the pipeline asks for: deliveries to whoever asked, the rest out.
    private mutating func route(_ pipelineActions: [RequestPipeline.Action], at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for action in pipelineActions {
            switch action {
            case .load(let order):
                actions.append(.load(order))
            case .cancelLoad(let attempt):
                actions.append(.cancelLoad(attempt))
            case .store(let resource, let response):
                actions.append(.output(.store(resource, response)))
            case .refreshCache(let resource, let response):
                actions.append(.output(.refreshCache(resource, response)))
            case .scheduleTimer(let id, let time):
                actions.append(.schedule(.timer(id), at: time))
            case .scheduleConnectivity(let offline, let time):
                actions.append(.schedule(.setOffline(offline), at: time))
            case .emit(let payload, let begin):
                actions.append(.output(.emit(payload, begin: begin)))
            case .deliver(let id, let response, let final):
                actions += deliver(response, for: id, final: final, at: now)
            }
        }
        return actions
    }

    /// Hands a response to whoever asked: a fetch gets its first answer only (what the pipeline
    /// would do next — a retry, waiting for the connection — is cancelled); the load sequence gets
    /// every answer, with the resource it answers.
    private mutating func deliver(_ response: Response, for id: RequestID, final: Bool, at now: SimTime) -> [Action] {
        var actions: [Action] = []
        guard let entry = requests[id] else { return [] }
        if case .fetch(let token) = entry.purpose {
            requests.remove(id)
            if !final { actions += route(pipeline.handle(.cancel(id), at: now), at: now) }
            actions.append(.output(.fetched(token, response)))
            return actions
        }
        if final { requests.remove(id) }
        if case .archiveRead(let read) = entry.purpose {
            actions += route(archives.handle(.answer(read, response, final: final), at: now), at: now)
            return actions
        }
        actions += route(sequence.handle(.receive(entry.purpose, entry.resource, response, final: final), at: now), at: now)
        return actions
    }

    /// Routes what the archive reader asks for: range reads to the pipeline, answers to the load sequence.
    private mutating func route(_ readerActions: [PMTilesReader.Action], at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for action in readerActions {
            switch action {
            case .read(let read, let resource):
                let id = requests.add(.archiveRead(read), resource)
                actions += route(pipeline.handle(.request(id, resource), at: now), at: now)
            case .cancelRead(let read):
                guard let id = requests.remove(.archiveRead(read)) else { continue }
                actions += route(pipeline.handle(.cancel(id), at: now), at: now)
            case .deliver(let purpose, let resource, let response, let final):
                actions += route(sequence.handle(.receive(purpose, resource, response, final: final), at: now), at: now)
            }
        }
        return actions
    }

    /// Routes what the render model asks for.
    private mutating func route(_ renderActions: [RenderModel.Action], at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for action in renderActions {
            switch action {
            case .scheduleFrame(let time): actions.append(.schedule(.frame, at: time))
            case .emit(let payload): actions.append(.output(.emit(payload)))
            }
        }
        return actions
    }
}
