import MapSim

/// A dynamic-entity data source on a real network, in real time, without a map to show it on:
/// observations come as text messages of a WebSocket (one or more JSON lines each) or as the
/// messages of an MQTT topic, go through the stream filter into a `DynamicEntityStore`, and the
/// connection follows ArcGIS's reconnect schedule. It is a `DynamicEntitySessionMachine` linked to
/// the feed, attached to a map that loads nothing and follows the wall clock — the same machine and
/// the same loop as a replay. Each event goes to `handler` with the time since the stream was made.
public actor DynamicEntityStream {
    /// Where the observations come from.
    public typealias Transport = DynamicEntityFeedLink.Transport

    private let map = Map.withoutStyle()
    private var machine: DynamicEntitySessionMachine?
    private var id: MapAttachmentID<DynamicEntitySessionMachine>?
    private let subscription: Cancelable
    /// Runs the map on the wall clock while the stream is connected.
    private var driver: Task<Void, Never>?

    /// A stream from `transport`, read in `format`, kept by `options` and `filter`, reconnecting on
    /// `schedule`.
    public init(transport: Transport, format: DynamicEntityFeedFormat, options: DynamicEntityPurgeOptions = .init(),
                filter: DynamicEntityFilter = .everything, schedule: DynamicEntityConnection.Schedule = .init(),
                handler: @escaping @Sendable (SimTime, DynamicEntityEvent) -> Void) {
        machine = DynamicEntitySessionMachine(transport: transport, format: format, options: options, filter: filter, schedule: schedule)
        subscription = map.subscribeAll { event in
            if case .dynamicEntity(let entity) = event.payload { handler(event.begin, entity) }
        }
    }

    deinit {
        driver?.cancel()
    }

    /// The source's machine as it is now.
    private var current: DynamicEntitySessionMachine {
        get async { await map.attachment(attached()) }
    }

    /// The connection status.
    public var status: DynamicEntityConnectionStatus { get async { await current.status } }

    /// The counts so far.
    public var summary: DynamicEntitySession.Summary { get async { await current.summary } }

    /// The kept entities.
    public var entities: [DynamicEntityStore.Entity] { get async { await current.store.entities } }

    /// The time since the stream was made.
    public var now: SimTime { get async { await map.now } }

    /// Connects.
    public func connect() async {
        await map.send(.connectToFeed, to: attached())
    }

    /// Disconnects and stops reconnecting.
    public func disconnect() async {
        await map.send(.disconnect, to: attached())
        driver?.cancel()
        driver = nil
    }

    /// Empties the store; the stream stays connected.
    public func purgeAll() async {
        await map.send(.purgeAll, to: attached())
    }

    /// The source's attachment: attached, and the map set on the wall clock, at its first use.
    private func attached() async -> MapAttachmentID<DynamicEntitySessionMachine> {
        if let id { return id }
        guard let machine = machine.take() else { preconditionFailure("the dynamic-entity stream is attached once") }
        await map.followWallClock()
        let attached = await map.attach(machine)
        id = attached
        driver = Task { [map] in
            while !Task.isCancelled { await map.advance(by: .seconds(60)) }
        }
        return attached
    }
}
