import MapSimJSON
import MapSimStyle

/// Global state (`["global-state", NAME]`): the style's defaults, the values the map sets, and what a
/// change does, as GL JS's `setGlobalStateProperty` does it.
extension LoadSequence {
    /// The values expressions read now: the style's defaults, with the values set over them.
    var globalState: JSONObject {
        // An engine without global state reads none (null).
        guard options.engine.ignores[.globalState] == nil else { return JSONObject() }
        var state = load.style?.state ?? JSONObject()
        for (name, value) in globalStateValues.members { state[name] = value }
        return state
    }

    /// Sets global state `name` to `value` (nil restores the style's default). A layer whose layout,
    /// filter or visibility reads it — or a paint property that reads features too — has its source
    /// reloaded: vector and GeoJSON tiles laid out again from the data they hold (new glyph ranges
    /// and images are requested, nothing else), raster tiles requested again; a visibility that
    /// changes shows or hides its layer. The same value again changes nothing.
    mutating func setGlobalState(_ name: String, to value: JSONValue?) -> [Action] {
        let before = globalState[name]
        if let value { globalStateValues[name] = value } else { globalStateValues[name] = nil }
        guard load.phase == .parsed, let style = load.style, globalState[name] != before else { return [] }
        let state = globalState
        load.style?.layers = style.layers.map { $0.resolvingVisibility(globalState: state) }
        var actions: [Action] = []
        let reloaded = style.layers.filter { $0.layout.reloadingStateNames.contains(name) }.compactMap(\.source)
        for index in load.sources.indices where reloaded.contains(load.sources[index].spec.id) {
            switch load.sources[index].spec.kind {
            case .vector, .geojson:
                actions += layOutAgain(source: load.sources[index].spec.id)
            case .raster, .rasterDEM, .rasterArray, .batchedModel:
                actions += reloadTiles(source: index)
            case .image, .video, .model:
                continue
            }
        }
        for index in load.sources.indices { load.sources[index].lastView = nil }
        return actions + [.invalidate]
    }

    /// Forgets a raster source's tiles, so that the next frame requests those the view needs again
    /// (GL JS has no copy of a raster tile to reload from); those still loading are cancelled.
    private mutating func reloadTiles(source index: Int) -> [Action] {
        let id = load.sources[index].spec.id
        let loading = load.sources[index].tiles.filter { $0.value.status == .loading }.sorted { $0.value.requestOrder < $1.value.requestOrder }
        load.sources[index].tiles = [:]
        load.sources[index].setVisible([])
        return loading.map { .cancel(.tile(id, $0.key)) }
    }
}
