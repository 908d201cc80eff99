import MapSimJSON

/// How far an offline region is downloaded: MapLibre Native's `OfflineRegionStatus`, every field.
public struct OfflineRegionStatus: Sendable, Equatable {
    /// Whether a download is under way.
    public enum DownloadState: String, Sendable, CaseIterable {
        case inactive, active
    }

    /// Whether the region is being downloaded.
    public var downloadState: DownloadState = .inactive
    /// Resources (tiles included) stored for the region.
    public var completedResourceCount = 0
    /// Bytes of them as stored (compressed where MapLibre compresses).
    public var completedResourceSize = 0
    /// Tiles stored for the region.
    public var completedTileCount = 0
    /// Bytes of those tiles as stored.
    public var completedTileSize = 0
    /// Tiles the region needs, as far as known.
    public var requiredTileCount = 0
    /// Resources (tiles included) the region needs, as far as known: a lower bound until every
    /// TileJSON is known (`requiredResourceCountIsPrecise`).
    public var requiredResourceCount = 0
    /// Whether `requiredResourceCount` is the final count.
    public var requiredResourceCountIsPrecise = false

    /// A status with these counts.
    public init(downloadState: DownloadState = .inactive, completedResourceCount: Int = 0, completedResourceSize: Int = 0,
                completedTileCount: Int = 0, completedTileSize: Int = 0, requiredTileCount: Int = 0, requiredResourceCount: Int = 0,
                requiredResourceCountIsPrecise: Bool = false) {
        self.downloadState = downloadState
        self.completedResourceCount = completedResourceCount
        self.completedResourceSize = completedResourceSize
        self.completedTileCount = completedTileCount
        self.completedTileSize = completedTileSize
        self.requiredTileCount = requiredTileCount
        self.requiredResourceCount = requiredResourceCount
        self.requiredResourceCountIsPrecise = requiredResourceCountIsPrecise
    }

    /// Whether every required resource is stored (MapLibre's `complete()`).
    public var isComplete: Bool {
        completedResourceCount >= requiredResourceCount
    }

    /// The fields as the event and `region status --json` write them, in MapLibre's order.
    public var json: JSONObject {
        JSONObject([
            ("download-state", .string(downloadState.rawValue)),
            ("completed-resource-count", .number(Double(completedResourceCount))),
            ("completed-resource-size", .number(Double(completedResourceSize))),
            ("completed-tile-count", .number(Double(completedTileCount))),
            ("completed-tile-size", .number(Double(completedTileSize))),
            ("required-tile-count", .number(Double(requiredTileCount))),
            ("required-resource-count", .number(Double(requiredResourceCount))),
            ("required-resource-count-is-precise", .bool(requiredResourceCountIsPrecise)),
            ("complete", .bool(isComplete)),
        ])
    }

    /// Reads the fields `json` writes; nil when one is missing or of the wrong kind.
    public init?(json: JSONObject) {
        func count(_ key: String) -> Int? {
            guard case .number(let value)? = json[key], value >= 0, value < 9e15, value == value.rounded() else { return nil }
            return Int(value)
        }
        guard let state = json["download-state"]?.stringValue.flatMap(DownloadState.init(rawValue:)),
              let completed = count("completed-resource-count"), let completedSize = count("completed-resource-size"),
              let tiles = count("completed-tile-count"), let tileSize = count("completed-tile-size"),
              let requiredTiles = count("required-tile-count"), let required = count("required-resource-count"),
              let precise = json["required-resource-count-is-precise"]?.boolValue else { return nil }
        self.init(downloadState: state, completedResourceCount: completed, completedResourceSize: completedSize, completedTileCount: tiles,
                  completedTileSize: tileSize, requiredTileCount: requiredTiles, requiredResourceCount: required, requiredResourceCountIsPrecise: precise)
    }
}
