import MapSim

/// Observations grouped into dynamic entities by track id, purged as ArcGIS purges them: by the
/// source's count, by track and by age, the oldest first, as each observation arrives (before it is
/// added) and as the clock advances. When an entity's last observation goes, the entity goes; the
/// same track id later is a new entity.
///
/// Storage is compact and bounded by the purge options: one slot per kept observation (its place, its
/// times and its JSON as text) on two linked lists — the source's arrival order and its
/// track's — so that any purge is O(1).
public struct DynamicEntityStore: Sendable {
    /// Counts since the store was made.
    public struct Counts: Sendable, Equatable {
        public var observationsReceived = 0
        public var observationsPurged = 0
        public var entitiesReceived = 0
        public var entitiesPurged = 0
    }

    /// An entity: its track id, its id, and its newest observation.
    public struct Entity: Sendable, Equatable {
        public var trackID: String
        public var id: Int64
        public var observationCount: Int
        public var latest: DynamicEntityObservation
    }

    private struct Slot: Sendable {
        var entity: Int32
        var previous: Int32
        var next: Int32
        var previousInTrack: Int32
        var nextInTrack: Int32
        var id: Int64
        var received: SimTime
        var longitude: Double
        var latitude: Double
        var json: [UInt8]
    }

    private struct EntitySlot: Sendable {
        var trackID: String
        var id: Int64
        var first: Int32
        var last: Int32
        var count: Int
    }

    public let options: DynamicEntityPurgeOptions
    public private(set) var counts = Counts()
    /// Whether `add` and the purges report events (off for bulk replays that only count).
    public var reportsEvents: Bool
    private var slots = SlotArray<Slot>()
    private var oldest: Int32 = -1
    private var newest: Int32 = -1
    private var entitySlots = SlotArray<EntitySlot>()
    private var entityByTrack: [String: Int32] = [:]
    private var nextObservationID: Int64 = 1
    private var nextEntityID: Int64 = 1
    /// How many observations are kept.
    public private(set) var count = 0

    /// An empty store.
    public init(options: DynamicEntityPurgeOptions = .init(), reportsEvents: Bool = true) {
        self.options = options
        self.reportsEvents = reportsEvents
    }

    /// How many entities are kept.
    public var entityCount: Int { entityByTrack.count }

    /// Adds `observation`, received at `now`, after the purges it causes; returns the events in order.
    @discardableResult
    public mutating func add(_ observation: DynamicEntityObservation, at now: SimTime) -> [DynamicEntityEvent] {
        var events: [DynamicEntityEvent] = []
        purgeExpired(at: now, into: &events)
        let existing = entityByTrack[observation.trackID]
        let perTrack = options.maximumObservationsPerTrack
        if perTrack > 0, let entity = existing {
            while entitySlots[Int(entity)].count >= perTrack {
                remove(entitySlots[Int(entity)].first, reason: .track, keeping: entity, into: &events)
            }
        }
        if options.maximumObservations > 0 {
            while count >= options.maximumObservations, oldest >= 0 {
                remove(oldest, reason: .count, keeping: existing ?? -1, into: &events)
            }
        }
        let entity: Int32
        if let existing {
            entity = existing
        } else {
            entity = newEntity(observation.trackID)
            if reportsEvents { events.append(.entityReceived(trackID: observation.trackID, entityID: entitySlots[Int(entity)].id)) }
        }
        let id = nextObservationID
        nextObservationID += 1
        let slot = Slot(entity: entity, previous: newest, next: -1, previousInTrack: entitySlots[Int(entity)].last, nextInTrack: -1, id: id, received: now,
                        longitude: observation.longitude, latitude: observation.latitude, json: observation.json)
        let index = slots.insert(slot)
        if newest >= 0 { slots[Int(newest)].next = index } else { oldest = index }
        newest = index
        let last = entitySlots[Int(entity)].last
        if last >= 0 { slots[Int(last)].nextInTrack = index } else { entitySlots[Int(entity)].first = index }
        entitySlots[Int(entity)].last = index
        entitySlots[Int(entity)].count += 1
        count += 1
        counts.observationsReceived += 1
        if reportsEvents { events.append(.observationReceived(trackID: observation.trackID, entityID: entitySlots[Int(entity)].id, observationID: id)) }
        return events
    }

    /// Purges every observation older than the maximum duration at `now`.
    @discardableResult
    public mutating func purgeExpired(at now: SimTime) -> [DynamicEntityEvent] {
        var events: [DynamicEntityEvent] = []
        purgeExpired(at: now, into: &events)
        return events
    }

    /// When the oldest observation becomes older than the maximum duration; nil without an age limit
    /// or without observations.
    public var nextExpiry: SimTime? {
        guard options.maximumDuration > .zero, oldest >= 0 else { return nil }
        return slots[Int(oldest)].received + options.maximumDuration + SimTime(microseconds: 1)
    }

    /// Empties the store (every observation purged, then every entity); counts and ids go on.
    @discardableResult
    public mutating func purgeAll() -> [DynamicEntityEvent] {
        var events: [DynamicEntityEvent] = []
        while oldest >= 0 { remove(oldest, reason: .purgeAll, keeping: -1, into: &events) }
        return events
    }

    /// The entity of `trackID`, with its newest observation.
    public func entity(trackID: String) -> Entity? {
        entityByTrack[trackID].map(entity(at:))
    }

    /// Every kept entity, by entity id.
    public var entities: [Entity] {
        entityByTrack.values.map(entity(at:)).sorted { $0.id < $1.id }
    }

    /// The kept observations of `trackID`, oldest first.
    public func track(_ trackID: String) -> [DynamicEntityObservation] {
        guard let entity = entityByTrack[trackID] else { return [] }
        var observations: [DynamicEntityObservation] = []
        var index = entitySlots[Int(entity)].first
        while index >= 0 {
            observations.append(observation(at: index))
            index = slots[Int(index)].nextInTrack
        }
        return observations
    }

    /// The ids of the kept observations, oldest first.
    public var observationIDs: [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(count)
        var index = oldest
        while index >= 0 {
            ids.append(slots[Int(index)].id)
            index = slots[Int(index)].next
        }
        return ids
    }

    // MARK: - Internals

    private func entity(at index: Int32) -> Entity {
        let entity = entitySlots[Int(index)]
        return Entity(trackID: entity.trackID, id: entity.id, observationCount: entity.count, latest: observation(at: entity.last))
    }

    private func observation(at index: Int32) -> DynamicEntityObservation {
        let slot = slots[Int(index)]
        return DynamicEntityObservation(trackID: entitySlots[Int(slot.entity)].trackID, longitude: slot.longitude, latitude: slot.latitude, json: slot.json)
    }

    private mutating func purgeExpired(at now: SimTime, into events: inout [DynamicEntityEvent]) {
        guard options.maximumDuration > .zero else { return }
        while oldest >= 0, now - slots[Int(oldest)].received > options.maximumDuration {
            remove(oldest, reason: .age, keeping: -1, into: &events)
        }
    }

    private mutating func newEntity(_ trackID: String) -> Int32 {
        let entity = EntitySlot(trackID: trackID, id: nextEntityID, first: -1, last: -1, count: 0)
        nextEntityID += 1
        counts.entitiesReceived += 1
        let index = entitySlots.insert(entity)
        entityByTrack[trackID] = index
        return index
    }

    /// Removes the observation at `index`; its entity goes too when it was its last, unless it is
    /// `kept` (the entity the arriving observation belongs to).
    private mutating func remove(_ index: Int32, reason: DynamicEntityEvent.PurgeReason, keeping kept: Int32, into events: inout [DynamicEntityEvent]) {
        // The links, read one by one: copying the slot would copy its JSON too.
        let (previous, next) = (slots[Int(index)].previous, slots[Int(index)].next)
        let (previousInTrack, nextInTrack) = (slots[Int(index)].previousInTrack, slots[Int(index)].nextInTrack)
        let observationID = slots[Int(index)].id
        if previous >= 0 { slots[Int(previous)].next = next } else { oldest = next }
        if next >= 0 { slots[Int(next)].previous = previous } else { newest = previous }
        let entity = Int(slots[Int(index)].entity)
        if previousInTrack >= 0 { slots[Int(previousInTrack)].nextInTrack = nextInTrack } else { entitySlots[entity].first = nextInTrack }
        if nextInTrack >= 0 { slots[Int(nextInTrack)].previousInTrack = previousInTrack } else { entitySlots[entity].last = previousInTrack }
        entitySlots[entity].count -= 1
        slots[Int(index)].json = []
        slots.release(index)
        count -= 1
        counts.observationsPurged += 1
        let entityID = entitySlots[entity].id
        if reportsEvents {
            events.append(.observationPurged(trackID: entitySlots[entity].trackID, entityID: entityID, observationID: observationID, reason: reason))
        }
        if entitySlots[entity].count == 0 && Int32(entity) != kept {
            let trackID = entitySlots[entity].trackID
            entityByTrack[trackID] = nil
            entitySlots[entity].trackID = ""
            entitySlots.release(Int32(entity))
            counts.entitiesPurged += 1
            if reportsEvents { events.append(.entityPurged(trackID: trackID, entityID: entityID)) }
        }
    }
}
