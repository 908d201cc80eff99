import MapSimJSON
import MapSimStyle

/// What an attachment can read of a map, as the map is at the moment of the read: its style, its
/// camera and view, and its GeoJSON sources' features.
public struct MapReadout: Sendable {
    let machine: MapMachine

    /// The parsed style, once loaded.
    public var style: Style? { machine.sequence.style }

    /// The camera as the map applies it to the view (the world at least as tall as the view).
    public var effectiveCamera: Camera { machine.sequence.effectiveCamera }

    /// The video sources that play, by id: while one plays the map repaints and never goes idle.
    public var playingVideos: [String] { machine.sequence.load.sources.filter(\.videoPlays).map(\.spec.id) }

    /// The imports that failed to load and hold the style back, as chains (`a → a2`): an engine
    /// that waits for every import (Mapbox GL JS 3.0.1) never loads the style, nor goes idle.
    public var blockingImportFailures: [String] {
        guard machine.sequence.options.engine.imports?.failedImportBlocks == true else { return [] }
        return machine.sequence.load.imports.nodes.filter { $0.status == .failed }.map { $0.scope.chain }
    }

    /// The GeoJSON sources whose tiles failed on a glyph range that could not be loaded, as their
    /// styles name them (`"pts"`, `"pts" of import basemap`): an engine that fails such tiles
    /// (Mapbox GL JS 3.0.1) never goes idle after that.
    public var glyphFailedGeoJSONSources: [String] {
        machine.sequence.load.glyphFailedGeoJSONSources.sorted().map(StyleScope.quoted)
    }

    /// The sources whose TileJSON, GeoJSON, image or video failed to load, as their styles name
    /// them, when the engine waits for them (MapLibre Native and the SDK): the style never loads.
    public var blockingSourceFailures: [String] {
        guard !machine.sequence.options.engine.settlesFailedSources else { return [] }
        return machine.sequence.load.sources.filter { $0.metadata == .failed }.map { StyleScope.quoted($0.spec.id) }
    }

    /// The sources whose raster or DEM tiles were not found (404) since the last frame, as their
    /// styles name them, when the engine draws no frame for such a tile (both GL JS): a map
    /// whose last answers they were never goes idle.
    public var silentlyMissingTileSources: [String] {
        machine.sequence.load.silentlyMissingTileSources.sorted().map(StyleScope.quoted)
    }

    /// The sources whose tiles failed (an error answer, a tile that does not decode) since the last
    /// frame, as their styles name them, when the engine draws no frame for a failed tile (MapLibre
    /// GL JS): a map whose last answers they were never goes idle.
    public var silentlyFailedTileSources: [String] {
        machine.sequence.load.silentlyFailedTileSources.sorted().map(StyleScope.quoted)
    }

    /// What `["config", NAME]` reads now in the layers of `scope` (the root style, or an import).
    public func config(of scope: StyleScope) -> JSONObject { machine.sequence.config(of: scope) }

    /// The styles the style imports that loaded (a Mapbox engine), in the order they loaded: each
    /// with its scope, the URL it was requested by (its importer's for an inline one) and its style
    /// as the map holds it: its sources and layers named in its scope (`StyleScope.qualify`).
    public var importedStyles: [(scope: StyleScope, url: String?, style: Style)] {
        machine.sequence.load.imports.nodes.dropFirst().compactMap { node in
            node.style.map { (scope: node.scope, url: node.resources.styleURL, style: $0) }
        }
    }

    /// The global state expressions read now: the style's defaults with the values set over them.
    public var globalState: JSONObject { machine.sequence.globalState }

    /// The view size and pixel ratio.
    public var viewport: Viewport { machine.sequence.viewport }

    /// The features of the GeoJSON source `source` as they are now, in the source's order; nil when
    /// there is no such GeoJSON source or its data has not loaded.
    public func geoJSONFeatures(source: String) -> [SourceFeature]? {
        machine.sequence.load.sources.first { $0.spec.id == source }?.geoJSON?.allFeatures()
    }

    /// `json` as a layer of the loaded style, for `MapInput.addLayer`: refused as `Map.addLayer`
    /// refuses it when no style is loaded or the layer is not valid in it.
    public func layer(_ json: JSONValue) throws(LoadingError) -> StyleLayer {
        try Self.layer(json, in: style)
    }

    /// `json` as a layer of `style`; the refusal names why it is not one.
    static func layer(_ json: JSONValue, in style: Style?) throws(LoadingError) -> StyleLayer {
        guard let style else { throw LoadingError.invalidCall("cannot add a layer: no style is loaded yet") }
        do {
            return try StyleLayer.parse(json, sources: style.sources)
        } catch {
            throw LoadingError.invalidCall("cannot add the layer: \(error)")
        }
    }
}
