/// The map's machine and the machines attached to it (live data, dynamic entities), composed into
/// the one machine its `DriveLoop` runs: one scheduler, one clock.
///
/// An attachment's inputs are scheduled in lanes after the map's own (lane 1, or lane 2 for what it
/// asks to run last), so at any time the map's work comes first. What an attachment asks of the map
/// — a call, a read — is carried out at once and answered before its next action; an event the map
/// sends is handed to every attachment that follows it, right after the event; an attachment that
/// waits for the map to be idle is handed its input when map-idle fires, or at once if it is idle.
struct MapLoopMachine: DrivenMachine {
    enum Input: Sendable {
        /// An input of the map's machine.
        case map(MapInput)
        /// A machine is attached (its id is its place in the order of attaching).
        case attach(any MapAttachment)
        /// An input of the attachment at this place, in this lane.
        case attachment(Int, any Sendable, lane: UInt8)
        /// The map was idle when the attachment at this place waited for it: hand it its input if it
        /// still waits and the map still is.
        case mapWasIdle(Int)
    }

    typealias Output = MapOutput

    /// The map's machine.
    private(set) var map: MapMachine
    /// The attachments, by place; one is nil only while it handles an input.
    private var attachments: [(any MapAttachment)?] = []
    /// The attachments for which a `mapWasIdle` is scheduled.
    private var idleChecks: Set<Int> = []
    /// What each fetch of an attachment under way makes of its answer.
    private var fetchAnswers: [FetchToken: @Sendable (Response) -> any Sendable] = [:]
    private var nextFetch = 0

    init(map: MapMachine) {
        self.map = map
    }

    static func input(for answer: LoadAnswer) -> Input { .map(.answer(answer)) }

    static func lane(of input: Input) -> UInt8 {
        switch input {
        case .map, .attach: 0
        case .attachment(_, _, let lane): lane
        case .mapWasIdle: 1
        }
    }

    /// How many machines are attached.
    var attachmentCount: Int { attachments.count }

    /// The attachment at `place`, as it is now.
    func attachment(at place: Int) -> any MapAttachment {
        guard let attachment = attachments[place] else { preconditionFailure("attachment \(place) is read while it handles an input") }
        return attachment
    }

    /// Whether `state` holds now; the map is not idle while an attachment waits for it to be.
    func isInState(_ state: Map.State) -> Bool {
        guard map.isInState(state) else { return false }
        return state != .mapIdle || !attachments.contains { $0?.waitsForMapIdle == true }
    }

    mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        let actions: [Action]
        switch input {
        case .map(let input):
            actions = feedMap(input, at: now)
        case .attach(let attachment):
            attachments.append(attachment)
            actions = []
        case .attachment(let place, let input, _):
            actions = feedAttachment(place, input, at: now)
        case .mapWasIdle(let place):
            idleChecks.remove(place)
            actions = map.isInState(.mapIdle) ? handIdleInput(to: place, at: now) : []
        }
        let checks = checksOfIdleMap(at: now)
        return checks.isEmpty ? actions : actions + checks
    }

    /// Feeds the map's machine; the events it sends are handed to the attachments that follow them,
    /// the answers to their fetches once the map is done with the input.
    private mutating func feedMap(_ input: MapInput, at now: SimTime) -> [Action] {
        var actions: [Action] = []
        var fetched: [(place: Int, input: any Sendable)] = []
        for action in map.handle(input, at: now) {
            switch action {
            case .load(let order):
                actions.append(.load(order))
            case .cancelLoad(let attempt):
                actions.append(.cancelLoad(attempt))
            case .schedule(let input, let time):
                actions.append(.schedule(.map(input), at: time))
            case .perform(let work):
                actions.append(.perform { post in await work(post.map { .map($0) }) })
            case .output(.fetched(let token, let response)) where token.attachment != nil:
                guard let place = token.attachment, let answer = fetchAnswers.removeValue(forKey: token) else {
                    preconditionFailure("the map answered fetch \(token.value) of attachment \(token.attachment ?? -1) twice, or one it never made")
                }
                fetched.append((place, answer(response)))
            case .output(let output):
                actions.append(.output(output))
                if case .emit(let payload, _) = output, !attachments.isEmpty { actions += handOver(payload, at: now) }
            }
        }
        for (place, input) in fetched { actions += feedAttachment(place, input, at: now) }
        return actions
    }

    /// Hands a map event to each attachment that follows it; map-idle also hands over what waits for it.
    private mutating func handOver(_ event: MapEventPayload, at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for place in attachments.indices {
            if let input = attachments[place]?.erasedInput(for: event) { actions += feedAttachment(place, input, at: now) }
            if case .mapIdle = event { actions += handIdleInput(to: place, at: now) }
        }
        return actions
    }

    /// Hands the attachment at `place` the input it waits for the map to be idle to have, if it waits.
    private mutating func handIdleInput(to place: Int, at now: SimTime) -> [Action] {
        guard let input = attachment(at: place).erasedIdleInput else { return [] }
        let actions = feedAttachment(place, input, at: now)
        if attachment(at: place).waitsForMapIdle && map.isInState(.mapIdle) {
            preconditionFailure("\(type(of: attachment(at: place))) still waits for an idle map after it was handed its input")
        }
        return actions
    }

    /// A check at once for each attachment that waits for the map to be idle while it is.
    private mutating func checksOfIdleMap(at now: SimTime) -> [Action] {
        let waiting = attachments.indices.filter { !idleChecks.contains($0) && attachments[$0]?.waitsForMapIdle == true }
        guard !waiting.isEmpty, map.isInState(.mapIdle) else { return [] }
        idleChecks.formUnion(waiting)
        return waiting.map { .schedule(.mapWasIdle($0), at: now) }
    }

    /// Feeds the attachment at `place`, and carries out what it asks.
    private mutating func feedAttachment(_ place: Int, _ input: any Sendable, at now: SimTime) -> [Action] {
        guard var attachment = attachments[place].take() else { preconditionFailure("attachment \(place) is fed while it handles an input") }
        let requested = attachment.handle(erased: input, at: now)
        attachments[place] = attachment
        var actions: [Action] = []
        for action in requested {
            switch action {
            case .schedule(let input, let time):
                actions.append(.schedule(.attachment(place, input, lane: 1), at: time))
            case .scheduleLast(let input, let time):
                actions.append(.schedule(.attachment(place, input, lane: 2), at: time))
            case .emit(let payload):
                actions.append(.output(.emit(payload)))
            case .call(let call, let answer):
                var refusal: LoadingError?
                for action in feedMap(call, at: now) {
                    if case .output(.refused(let error)) = action { refusal = error } else { actions.append(action) }
                }
                if let input = answer(refusal) { actions += feedAttachment(place, input, at: now) }
            case .fetch(let resource, let timeout, let answer):
                let token = FetchToken(attachment: place, value: nextFetch)
                nextFetch += 1
                fetchAnswers[token] = answer
                actions += feedMap(.fetch(token, resource, timeout: timeout), at: now)
            case .perform(let work):
                actions.append(.perform { post in await work(post.map { .attachment(place, $0, lane: 0) }) })
            case .read(let read):
                actions += feedAttachment(place, read(MapReadout(machine: map)), at: now)
            case .feed(let input):
                actions += feedAttachment(place, input, at: now)
            }
        }
        return actions
    }
}

extension MapAttachment {
    /// Whether it waits for the map to be idle.
    var waitsForMapIdle: Bool { inputWhenMapIsIdle != nil }

    fileprivate var erasedIdleInput: (any Sendable)? { inputWhenMapIsIdle }

    fileprivate func erasedInput(for event: MapEventPayload) -> (any Sendable)? { input(for: event) }

    /// Handles an input the loop holds as any value: one of another type cannot reach it.
    fileprivate mutating func handle(erased input: any Sendable, at now: SimTime) -> [AttachmentAction<any Sendable>] {
        guard let input = input as? Input else { preconditionFailure("\(Self.self) was fed \(type(of: input)), not its \(Input.self)") }
        return handle(input, at: now).map(\.erased)
    }
}

extension AttachmentAction {
    /// The action with its inputs held as any value.
    fileprivate var erased: AttachmentAction<any Sendable> {
        switch self {
        case .schedule(let input, let time): .schedule(input, at: time)
        case .scheduleLast(let input, let time): .scheduleLast(input, at: time)
        case .emit(let payload): .emit(payload)
        case .call(let call, let answer): .call(call) { answer($0) }
        case .fetch(let resource, let timeout, let answer): .fetch(resource, timeout: timeout) { answer($0) }
        case .perform(let work): .perform { post in await work(post.map { (input: Input) in input }) }
        case .read(let read): .read { read($0) }
        case .feed(let input): .feed(input)
        }
    }
}
