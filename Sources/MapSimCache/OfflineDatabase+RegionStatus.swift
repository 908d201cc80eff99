import MapSim
import MapSimStyle

extension OfflineDatabase {
    /// A region's status when no download runs, as MapLibre Native's `getStatus` works it out:
    /// the completed counts from what the database holds, the required counts from the stored
    /// style and TileJSON documents — precise only when every TileJSON is stored. Tile counts of a
    /// tile pyramid use MapLibre's `tileCount` (the columns and rows between the corners' tiles).
    /// A region downloaded with only the glyph ranges its tiles need requires those ranges.
    ///
    /// This is the one definition of a region's completeness: `region download` ends with it, and
    /// `status`, `list` and `check` report it.
    public func status(of region: OfflineRegion) throws(CacheError) -> OfflineRegionStatus {
        var status = try completedStatus(of: region.id)
        status.requiredResourceCount += 1
        guard case .success(let definition) = region.definition else { return status }
        let plan = RegionPlan(definition: definition, mapbox: options.mapbox)
        guard let body = try storedResponse(RowKey(plan.style, mapbox: options.mapbox), for: plan.style.url)?.data,
              let style = try? Style.parse(body) else { return status }
        status.requiredResourceCountIsPrecise = true
        for source in plan.tiledSources(style) {
            let tileJSON: TileJSON
            let base: String?
            if let metadata = plan.tileJSON(of: source) {
                status.requiredResourceCount += 1
                guard let data = try storedResponse(RowKey(metadata, mapbox: options.mapbox), for: metadata.url)?.data,
                      let parsed = try? TileJSON.parse(data) else {
                    status.requiredResourceCountIsPrecise = false
                    continue
                }
                tileJSON = parsed
                base = metadata.url
            } else {
                tileJSON = TileJSON(tiles: source.tiles ?? [])
                base = plan.resources.styleURL
            }
            guard let set = plan.tileSet(of: source, tileJSON: tileJSON, base: base) else { continue }
            let count = set.zooms.reduce(0) { $0 + definition.statusTileCount(atZoom: $1) }
            status.requiredTileCount += count
            status.requiredResourceCount += count
        }
        status.requiredResourceCount += style.sources.filter { ($0.kind == .geojson || $0.kind == .image) && !($0.url ?? "").isEmpty }.count
        let glyphRanges = try glyphSavings(of: region.id)?.needed ?? plan.glyphRangeCount(style)
        status.requiredResourceCount += glyphRanges + 4 * style.sprites.count
        return status
    }
}

extension OfflineDatabase {
    /// A region's completeness: its status (`status(of:)`) and what is missing, with why.
    public func completeness(of region: OfflineRegion) throws(CacheError) -> RegionCompleteness {
        RegionCompleteness(status: try status(of: region), absent: try absentResources(of: region.id))
    }
}
