import MapSim
import MapSimStyle

/// Live data on a map's drive loop, as one machine attached to the map: the live-data manager
/// (`LiveDataManager`), the view follower (`LiveViewFollower`) and the broker composed — the
/// simulated one (`SimulatedBroker`, its deliveries on the map's scheduler), or a real one reached
/// over MQTT (`MQTTBrokerLink`, its I/O performed beside the loop and what it brings fed as it
/// arrives, on a map that follows the wall clock) — their timers on the map's scheduler, the updates
/// applied to the map's GeoJSON source through a `LiveBinding`, and the map control's live data
/// (`enableLiveData`): display layers that show the floor, criteria that follow the view once the map
/// is idle after a change, and `live-locations-updated` for each change applied.
///
/// The events and feature changes of what happens at one time are sent together, after everything
/// else due then — one update of the bound source, named by the count of updates applied so far.
public struct LiveSessionMachine: MapAttachment {
    /// What happens to live data: what the user does, what the world does, timers, and the steps of
    /// an input that needs the map's answers (the machine feeds these to itself).
    public enum Input: Sendable {
        /// The application subscribes to criteria (connecting first if needed).
        case subscribe(TopicCriteria)
        /// The application unsubscribes from criteria.
        case unsubscribe(TopicCriteria)
        /// Live data follows the view for a domain (its check as a topic level is the caller's).
        case enable(domain: String)
        /// Live data stops following the view for a domain.
        case disable(domain: String)
        /// The map shows this floor.
        case setFloor(String)
        /// The broker is told something (a publish, a dropped connection, a stop, a start); what
        /// arrives at once is felt at once.
        case broker(SimulatedBroker.Command)
        /// Publishes, one after the other, at once.
        case publish([LiveUpdate])
        /// What the broker sent for this time arrives, in the order sent.
        case deliveriesDue
        /// The manager's reconnect timer fires.
        case reconnectDue
        /// The time's events and changes go to the map.
        case flush
        /// The camera or the view changed.
        case viewChanged
        /// The map is idle after a change the view follower waits for.
        case mapIsIdle
        /// Step of `mapIsIdle`: what the map shows, and what its style holds for the display layers.
        case settled(locations: [LiveLocation], view: LiveView, layers: LiveDisplayLayers)
        /// Step of `settled`: the view follower works the criteria out.
        case follow(locations: [LiveLocation], view: LiveView)
        /// Step of `setFloor`: what the style holds for the display layers.
        case showLayers(LiveDisplayLayers)
        /// Step: a display layer was added (or refused).
        case layerAdded(domain: String, floor: String, LoadingError?)
        /// Step of `disable`: the domain's display layer goes, if the style has it.
        case removeLayer(domain: String, present: Bool)
        /// Step: something failed, reported as a live-error.
        case failed(String)
        /// Step: the bound source took the update of `count` changes (or refused it).
        case updateAnswered(count: Int, LoadingError?)
        /// Step: the events so far go to the map.
        case flushNow
        /// What the real broker did.
        case brokerReport(MQTTBrokerLink.Report)
        /// The session ends: the real broker's connection is closed and no reconnect is made.
        case close
    }

    private(set) var manager: LiveDataManager
    private(set) var follower = LiveViewFollower()
    /// The simulated broker; unused when `link` is set.
    private(set) var broker: SimulatedBroker
    /// The link to a real broker, if live data comes from one.
    private var link: MQTTBrokerLink?
    /// Whether the session ended (`close`): the manager's connects and subscriptions go nowhere.
    private var isClosed = false
    private let binding: LiveBinding?
    private let fields: LiveLocationFields
    /// The floor chosen; nil shows the lowest floor of the locations.
    private(set) var chosenFloor: String?
    /// The floor each domain's display layer shows, by domain.
    private var displayedFloors: [String: String] = [:]
    /// The locations whose state changed in an enabled domain, by domain, since the last flush.
    private var changedLocations: [String: [String]] = [:]
    private var appliedUpdates = 0
    /// How many messages came from the broker and have had their events sent to the map.
    public private(set) var messagesDelivered = 0
    /// Messages taken since the last flush.
    private var messagesTaken = 0
    /// Events and feature changes not yet sent to the map.
    private var outbox: [LiveEvent] = []
    private var changes = GeoJSONSourceDiff()
    private var flushScheduled = false
    /// What the broker sent and has not arrived, by arrival time, in the order sent: one input of
    /// the loop a time, however many messages arrive then.
    private var inFlight: [SimTime: [SimulatedBroker.Delivery]] = [:]

    /// Live data applied through `binding`, with `broker`, the manager's `backoff`, and `seed` for the
    /// reconnect jitter and the broker's chaos; `fields` and `floor` say where the bound source's
    /// locations are and which floor the map shows.
    public init(broker: SimulatedBroker.Configuration = .init(), binding: LiveBinding? = nil, backoff: LiveDataManager.Backoff = .init(),
                seed: UInt64 = 0, fields: LiveLocationFields = .init(), floor: String? = nil) {
        manager = LiveDataManager(backoff: backoff, seed: seed)
        self.broker = SimulatedBroker(configuration: broker, seed: seed)
        self.binding = binding
        self.fields = fields
        chosenFloor = floor
    }

    /// Live data from the real MQTT broker at `endpoint`, applied through `binding`; the map it is
    /// attached to follows the wall clock (`Map.followWallClock()`) for the broker's messages to come
    /// in real time. The rest as for the simulated broker.
    public init(mqtt endpoint: MQTTLiveSession.Endpoint, binding: LiveBinding? = nil, backoff: LiveDataManager.Backoff = .init(),
                seed: UInt64 = 0, fields: LiveLocationFields = .init(), floor: String? = nil) {
        self.init(binding: binding, backoff: backoff, seed: seed, fields: fields, floor: floor)
        link = MQTTBrokerLink(endpoint: endpoint)
    }

    /// Whether the real broker was ever reached.
    public var hasReachedBroker: Bool { link?.hasConnected ?? false }

    /// How many connects to the real broker failed in a row (0 once connected).
    public var failedConnects: Int { link?.failedConnects ?? 0 }

    /// Why the real broker cannot be reached, once a connect failed before any succeeded.
    public var unreachableBroker: String? {
        guard let link, !link.hasConnected else { return nil }
        return link.lastConnectFailure
    }

    public func input(for event: MapEventPayload) -> Input? {
        if case .cameraChanged = event, !follower.domains.isEmpty { return .viewChanged }
        return nil
    }

    public var inputWhenMapIsIdle: Input? {
        follower.isWaitingToSettle ? .mapIsIdle : nil
    }

    public mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .subscribe(let criteria):
            return follow(follower.handle(.subscribe(criteria), at: now), at: now) + flush()
        case .unsubscribe(let criteria):
            return follow(follower.handle(.unsubscribe(criteria), at: now), at: now) + flush()
        case .enable(let domain):
            guard binding != nil else {
                outbox.append(.error(message: "live data for \(domain) needs a GeoJSON source to follow: the session has none"))
                return flush()
            }
            return follow(follower.handle(.enable(domain: domain), at: now), at: now) + flush()
        case .disable(let domain):
            let actions = follow(follower.handle(.disable(domain: domain), at: now), at: now)
            guard displayedFloors.removeValue(forKey: domain) != nil else { return actions + flush() }
            let id = LiveDisplayRule.layerID(domain: domain)
            return actions + [.read { map in .removeLayer(domain: domain, present: map.style?.layers.contains { $0.id == id } == true) }, .feed(.flushNow)]
        case .setFloor(let floor):
            guard floor != chosenFloor else { return [] }
            chosenFloor = floor
            _ = follower.handle(.viewChanged, at: now)
            return [.read { [self] map in .showLayers(displayLayers(on: map, floor: floor)) }, .feed(.flushNow)]
        case .broker(let command):
            return arrive(broker.handle(command, at: now), at: now) + flush()
        case .publish(let updates):
            var actions: [Action] = []
            for update in updates { actions += arrive(broker.handle(.publish(update.topic, payload: update.payload), at: now), at: now) }
            return actions + flush()
        case .deliveriesDue:
            var actions: [Action] = []
            for delivery in inFlight.removeValue(forKey: now) ?? [] where broker.accepts(delivery) {
                actions += manage(delivery.input, at: now)
            }
            return actions + flushLast(at: now)
        case .reconnectDue:
            return manage(.reconnectDue, at: now) + flushLast(at: now)
        case .flush:
            flushScheduled = false
            return flush()
        case .viewChanged:
            return follow(follower.handle(.viewChanged, at: now), at: now)
        case .mapIsIdle:
            return [.read { [self] map in
                let (locations, view) = LiveView.current(on: map, source: binding?.sourceID ?? "", fields: fields, floor: chosenFloor)
                return .settled(locations: locations, view: view, layers: displayLayers(on: map, floor: view.floor))
            }]
        case .settled(let locations, let view, let layers):
            return show(layers) + [.feed(.follow(locations: locations, view: view))]
        case .follow(let locations, let view):
            return follow(follower.handle(.settled(locations: locations, view: view), at: now), at: now) + flush()
        case .showLayers(let layers):
            return show(layers)
        case .layerAdded(let domain, let floor, let refusal):
            if let refusal {
                outbox.append(.error(message: "cannot show the live data of \(domain): \(refusal)"))
            } else {
                displayedFloors[domain] = floor
            }
            return []
        case .removeLayer(let domain, let present):
            guard present else { return [] }
            return [.call(.removeLayer(LiveDisplayRule.layerID(domain: domain))) { refusal in
                refusal.map { .failed("cannot remove the live data layer of \(domain): \($0)") }
            }]
        case .failed(let message):
            outbox.append(.error(message: message))
            return []
        case .updateAnswered(let count, let refusal):
            defer { changedLocations = [:] }
            if let refusal {
                let source = binding?.sourceID ?? ""
                return [.emit(.live(.error(message: "cannot apply \(count) update\(count == 1 ? "" : "s") to source \"\(source)\": \(refusal)")))]
            }
            return follower.domains.compactMap { domain in changedLocations[domain].map { .emit(.live(.locationsUpdated(domain: domain, ids: $0))) } }
        case .flushNow:
            return flush()
        case .brokerReport(let report):
            guard var link else { preconditionFailure("a report of a real broker reached a session with the simulated one") }
            let (input, work) = link.take(report)
            self.link = link
            var actions = work.map { [Self.perform($0)] } ?? []
            if let input { actions += manage(input, at: now) + flushLast(at: now) }
            return actions
        case .close:
            isClosed = true
            let work = link?.close()
            return work.map { [Self.perform($0)] } ?? []
        }
    }

    /// Work with the real broker, performed beside the map's loop; what it reports comes back as input.
    private static func perform(_ work: @escaping MQTTBrokerLink.Work) -> Action {
        .perform { post in await work(post.map { .brokerReport($0) }) }
    }

    /// Hands a manager's action for the broker to the real one, or to the simulated one (whose
    /// answers are scheduled); nothing once the session is closed.
    private mutating func send(_ action: LiveDataManager.Action, _ command: SimulatedBroker.Command, at now: SimTime) -> [Action] {
        guard !isClosed else { return [] }
        guard link != nil else { return schedule(broker.handle(command, at: now)) }
        return link?.work(for: action).map { [Self.perform($0)] } ?? []
    }

    // MARK: - Steps

    /// Asks the manager what the view follower decided.
    private mutating func follow(_ decisions: [LiveViewFollower.Action], at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for decision in decisions {
            switch decision {
            case .subscribe(let criteria): actions += manage(.subscribe(criteria), at: now)
            case .unsubscribe(let criteria): actions += manage(.unsubscribe(criteria), at: now)
            }
        }
        return actions
    }

    /// Feeds the manager, and carries out what it asks: the broker's answers are scheduled, its
    /// events and updates wait in the outbox.
    private mutating func manage(_ input: LiveDataManager.Input, at now: SimTime) -> [Action] {
        if case .message = input { messagesTaken += 1 }
        var actions: [Action] = []
        for action in manager.handle(input, at: now) {
            switch action {
            case .connect: actions += send(action, .connect, at: now)
            case .disconnect: actions += send(action, .disconnect, at: now)
            case .subscribe(let criteria): actions += send(action, .subscribe(criteria), at: now)
            case .unsubscribe(let criteria): actions += send(action, .unsubscribe(criteria), at: now)
            case .scheduleReconnect(let time): if !isClosed { actions.append(.schedule(.reconnectDue, at: time)) }
            case .emit(let event): actions += take(event, at: now)
            }
        }
        return actions
    }

    /// Keeps an event of the manager for the next flush; a refusal goes to the view follower, an
    /// update becomes a change of the bound source.
    private mutating func take(_ event: LiveEvent, at now: SimTime) -> [Action] {
        outbox.append(event)
        var actions: [Action] = []
        if case .subscriptionError(let filter, _) = event, let criteria = try? TopicCriteria(parsing: filter) {
            actions += follow(follower.handle(.refused(criteria), at: now), at: now)
        }
        if case .update(let update) = event, let binding {
            let (id, change) = binding.change(for: update)
            changes.change(id, change)
            appliedUpdates += 1
            let domain = LiveBinding.domain(of: update)
            if follower.domains.contains(domain), changedLocations[domain]?.contains(update.id) != true {
                changedLocations[domain, default: []].append(update.id)
            }
        }
        return actions
    }

    /// The broker's answers, each at its time.
    private mutating func schedule(_ deliveries: [SimulatedBroker.Delivery]) -> [Action] {
        var actions: [Action] = []
        for delivery in deliveries {
            if inFlight[delivery.time] == nil { actions.append(.schedule(.deliveriesDue, at: delivery.time)) }
            inFlight[delivery.time, default: []].append(delivery)
        }
        return actions
    }

    /// What the broker sends at once arrives now (a loss is felt at once); the rest at its time.
    private mutating func arrive(_ deliveries: [SimulatedBroker.Delivery], at now: SimTime) -> [Action] {
        var actions: [Action] = []
        for delivery in deliveries {
            if delivery.time > now {
                actions += schedule([delivery])
            } else if broker.accepts(delivery) {
                actions += manage(delivery.input, at: now)
            }
        }
        return actions
    }

    /// A flush after everything else due now, unless one is coming.
    private mutating func flushLast(at now: SimTime) -> [Action] {
        guard !flushScheduled else { return [] }
        flushScheduled = true
        return [.scheduleLast(.flush, at: now)]
    }

    /// Sends the outbox's events to the map, then its feature changes as one update of the bound
    /// source; `live-locations-updated` follows for each enabled domain whose locations changed.
    private mutating func flush() -> [Action] {
        var actions: [Action] = outbox.map { .emit(.live($0)) }
        outbox = []
        messagesDelivered += messagesTaken
        messagesTaken = 0
        guard let binding, !changes.isEmpty else { return actions }
        let diff = changes
        changes = GeoJSONSourceDiff()
        actions.append(.call(.updateGeoJSONSource(id: binding.sourceID, diff: diff, dataID: "live-\(appliedUpdates)")) { refusal in
            .updateAnswered(count: diff.count, refusal)
        })
        return actions
    }

    /// What the map's style holds for the display layers of the enabled domains on `floor`.
    private func displayLayers(on map: MapReadout, floor: String) -> LiveDisplayLayers {
        guard let binding, let style = map.style else { return LiveDisplayLayers(floor: floor, present: nil, layers: [:]) }
        var layers: [String: Result<StyleLayer, LoadingError>] = [:]
        for domain in follower.domains {
            layers[domain] = Result { () throws(LoadingError) in
                try map.layer(LiveDisplayRule.layer(domain: domain, source: binding.sourceID, floor: floor, fields: fields))
            }
        }
        return LiveDisplayLayers(floor: floor, present: Set(style.layers.map(\.id)), layers: layers)
    }

    /// Makes each enabled domain's display layer show the floor; a map with no style yet gets them
    /// at the next settle, and so does a style loaded since (a new style has none of them).
    private mutating func show(_ plan: LiveDisplayLayers) -> [Action] {
        guard let present = plan.present else { return [] }
        var actions: [Action] = []
        for domain in follower.domains {
            let id = LiveDisplayRule.layerID(domain: domain)
            if !present.contains(id) { displayedFloors[domain] = nil }
            guard displayedFloors[domain] != plan.floor else { continue }
            if displayedFloors.removeValue(forKey: domain) != nil {
                actions.append(.call(.removeLayer(id)) { refusal in refusal.map { .failed("cannot show the live data of \(domain): \($0)") } })
            }
            switch plan.layers[domain] {
            case .success(let layer)?:
                actions.append(.call(.addLayer(layer, before: nil)) { [floor = plan.floor] refusal in .layerAdded(domain: domain, floor: floor, refusal) })
            case .failure(let refusal)?:
                outbox.append(.error(message: "cannot show the live data of \(domain): \(refusal)"))
            case nil:
                continue
            }
        }
        return actions
    }
}
