import MapSimJSON

/// Changes to a GeoJSON source's features by id, as MapLibre's `GeoJSONSource.updateData` takes them:
/// move a feature (a new geometry), set or remove some of its properties, remove it, or add a feature
/// that is not there yet (a change with a geometry for an unknown id). A feature's id is its `id`, or
/// the source's `promoteId` property.
///
/// Diffs merge: a later change of the same feature overrides what it sets and keeps the rest, so a
/// pending diff holds at most one change per feature however many updates went into it.
public struct GeoJSONSourceDiff: Sendable, Equatable {
    /// What changes for one feature.
    public struct FeatureChange: Sendable, Equatable {
        /// The new geometry (a GeoJSON geometry object), or nil to keep it.
        public var geometry: JSONValue?
        /// Properties to add or replace.
        public var properties: JSONObject
        /// Properties to remove.
        public var removedProperties: [String]
        /// Whether the feature goes away.
        public var isRemoval: Bool

        /// A change.
        public init(geometry: JSONValue? = nil, properties: JSONObject = JSONObject(), removedProperties: [String] = [], isRemoval: Bool = false) {
            self.geometry = geometry
            self.properties = properties
            self.removedProperties = removedProperties
            self.isRemoval = isRemoval
        }

        /// This change followed by `later`.
        func merged(with later: FeatureChange) -> FeatureChange {
            if later.isRemoval { return later }
            // Properties of a removed feature change nothing; a geometry brings it back.
            if isRemoval && later.geometry == nil { return self }
            var merged = isRemoval ? FeatureChange() : self
            if let geometry = later.geometry { merged.geometry = geometry }
            merged.removedProperties.removeAll { later.properties[$0] != nil }
            for (name, value) in later.properties.members { merged.properties[name] = value }
            for name in later.removedProperties where !merged.removedProperties.contains(name) {
                merged.properties[name] = nil
                merged.removedProperties.append(name)
            }
            return merged
        }
    }

    /// The changed features' ids, in the order they first changed.
    public private(set) var ids: [JSONValue] = []
    private var changes: [String: FeatureChange] = [:]

    /// An empty diff.
    public init() {}

    /// Whether nothing changes.
    public var isEmpty: Bool { ids.isEmpty }

    /// How many features change.
    public var count: Int { ids.count }

    /// Adds a change of the feature `id`, merged with any change of it already in the diff.
    public mutating func change(_ id: JSONValue, _ change: FeatureChange) {
        let key = Self.key(id)
        if let held = changes[key] {
            changes[key] = held.merged(with: change)
        } else {
            ids.append(id)
            changes[key] = change
        }
    }

    /// The change of the feature `id`.
    public func change(of id: JSONValue) -> FeatureChange? {
        changes[Self.key(id)]
    }

    /// This diff followed by `later`.
    public mutating func merge(_ later: GeoJSONSourceDiff) {
        for id in later.ids {
            if let change = later.change(of: id) { self.change(id, change) }
        }
    }

    /// The key a feature id is known by: its JSON text, so `12` and `"12"` are different ids, as in GeoJSON.
    static func key(_ id: JSONValue) -> String {
        JSONWriter.string(id)
    }
}
