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

    private let host: WallClockHost<DynamicEntitySessionMachine>
    private let subscription: Cancelable

    /// A stream from `transport`, read in `format`, kept by `options` and `filter`, reconnecting on
    /// `schedule`.
    public init(transport: Transport, format: DynamicEntityFeedFormat, options: DynamicEntityPurgeOptions = .init(),
                filter: DynamicEntityFilter = .everything, schedule: DynamicEntityConnection.Schedule = .init(),
                handler: @escaping @Sendable (SimTime, DynamicEntityEvent) -> Void) {
        host = WallClockHost(DynamicEntitySessionMachine(transport: transport, format: format, options: options, filter: filter, schedule: schedule))
        subscription = host.map.subscribeAll { event in
            if case .dynamicEntity(let entity) = event.payload { handler(event.begin, entity) }
        }
    }

    /// The connection status.
    public var status: DynamicEntityConnectionStatus { get async { await host.machine.status } }

    /// The counts so far.
    public var summary: DynamicEntitySession.Summary { get async { await host.machine.summary } }

    /// The kept entities.
    public var entities: [DynamicEntityStore.Entity] { get async { await host.machine.store.entities } }

    /// The time since the stream was made.
    public var now: SimTime { get async { await host.map.now } }

    /// Connects.
    public func connect() async {
        await host.send(.connectToFeed)
    }

    /// Disconnects and stops reconnecting.
    public func disconnect() async {
        await host.send(.disconnect)
        await host.stop()
    }

    /// Empties the store; the stream stays connected.
    public func purgeAll() async {
        await host.send(.purgeAll)
    }
}
