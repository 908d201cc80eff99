import MapSimJSON

/// Run-time changes to GeoJSON sources: each goes through a simulated worker (it takes
/// `geoJSONParseTime`), one at a time per source, with later changes merged while one is in flight.
extension LoadSequence {
    /// How long the worker takes to apply an update to a source holding `features` features: 1 ms,
    /// plus 1 µs per feature, as re-tiling costs.
    static func geoJSONParseTime(features: Int) -> SimTime {
        .milliseconds(1) + SimTime(microseconds: Int64(features))
    }

    /// Changes features of the GeoJSON source `id`; `dataID` comes back in its source-data-loaded.
    mutating func updateGeoJSON(source id: String, diff: GeoJSONSourceDiff, dataID: String?, at now: SimTime) -> [Action] {
        guard let index = load.sources.firstIndex(where: { $0.spec.id == id }) else { return refuse("source \"\(id)\" does not exist") }
        guard load.sources[index].spec.kind == .geojson else { return refuse("source \"\(id)\" is not a GeoJSON source") }
        guard load.sources[index].geoJSON != nil else { return refuse("source \"\(id)\" has not loaded its data yet") }
        let token = nextUpdateToken
        nextUpdateToken += 1
        var actions: [Action] = []
        if let update = load.sources[index].updates.enqueue(diff, dataID: dataID, token: token) {
            actions.append(schedule(update, source: index, at: now))
        }
        // The source is not loaded until the worker is done: the map is busy again.
        return actions + [.invalidate]
    }

    private func schedule(_ update: GeoJSONUpdateQueue.Update, source index: Int, at now: SimTime) -> Action {
        let features = load.sources[index].geoJSON?.count ?? 0
        return .scheduleGeoJSONUpdate(source: load.sources[index].spec.id, token: update.token,
                                      at: now + Self.geoJSONParseTime(features: features + update.diff.count))
    }

    /// The worker finished an update: the source takes it, reports it (source-data-loaded with its
    /// data-id), and the tiles it touched are laid out again; the next pending update starts.
    mutating func finishGeoJSONUpdate(source id: String, token: Int, at now: SimTime) -> [Action] {
        guard let index = load.sources.firstIndex(where: { $0.spec.id == id }) else { return [] }
        guard let (done, next) = load.sources[index].updates.finish(token: token, nextToken: nextUpdateToken) else { return [] }
        nextUpdateToken += 1
        let touched = load.sources[index].geoJSON?.apply(done.diff) ?? []
        var actions: [Action] = [.emit(.sourceDataLoaded(SourceDataLoaded(id: id, type: .metadata, dataID: done.dataID)))]
        if let tiler = load.sources[index].geoJSON {
            for (tile, state) in load.sources[index].tiles.sorted(by: { $0.key < $1.key }) where state.content != nil {
                guard touched.contains(where: { tiler.intersects($0, tile.canonical) }) else { continue }
                load.sources[index].tiles[tile]?.content = .geoJSON(tiler.features(in: tile.canonical))
                // Its symbols are placed again, and fade in, as after any tile reload.
                load.sources[index].markUndrawn(tile)
                actions += settleContent(source: index, tile: tile)
            }
        }
        actions.append(.invalidate)
        if let next { actions.append(schedule(next, source: index, at: now)) }
        return actions
    }
}
