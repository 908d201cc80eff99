import MapSimJSON

extension Style {
    /// Parses a style document by `flavor`'s style spec (Mapbox's has imports, config, slots and
    /// its own layer and source types). Errors name the JSON path of the problem; a document that
    /// is not JSON gives its line and column.
    public static func parse(_ bytes: [UInt8], flavor: StyleSpecFlavor = .maplibre) throws(StyleError) -> Style {
        try parse(JSONField.document(bytes, what: "the style").value, flavor: flavor)
    }

    /// Parses a style from its JSON text.
    public static func parse(_ text: String, flavor: StyleSpecFlavor = .maplibre) throws(StyleError) -> Style {
        try parse(Array(text.utf8), flavor: flavor)
    }

    /// Parses a style from a parsed JSON document. By MapLibre's spec, Mapbox's `imports` are kept
    /// only where they read well (a MapLibre map ignores them, and says so).
    public static func parse(_ document: JSONValue, flavor: StyleSpecFlavor = .maplibre) throws(StyleError) -> Style {
        let root = JSONField(document)
        _ = try root.object()
        guard let version = root.member("version") else { throw root.failure("missing required property \"version\"") }
        guard try version.number() == 8 else { throw version.failure("style version must be 8") }

        var style = Style()
        style.name = try root.member("name")?.string()
        // The camera is the map's to clamp, as the SDKs do: out-of-range values load, with a warning.
        if let center = root.member("center") {
            let values = try center.array()
            guard values.count >= 2 else { throw center.failure("expected [longitude, latitude]") }
            let longitude = try values[0].number()
            let latitude = try values[1].number()
            if !(-180...180).contains(longitude) {
                style.warnings.append("center: longitude \(longitude) is outside -180...180; the map wraps it")
            }
            if abs(latitude) > LngLat.maximumMercatorLatitude {
                style.warnings.append("center: latitude \(latitude) is beyond ±\(LngLat.maximumMercatorLatitude); the map clamps it")
            }
            style.center = LngLat(longitude: longitude, latitude: latitude)
        }
        style.zoom = try root.member("zoom")?.number()
        if let zoom = style.zoom, !(0...Style.maximumZoom).contains(zoom) {
            style.warnings.append("zoom: \(zoom) is outside 0...\(Style.maximumZoom); the map clamps it")
        }
        style.bearing = try root.member("bearing")?.number()
        style.pitch = try root.member("pitch")?.number()
        if let pitch = style.pitch, !(0...Style.maximumPitch).contains(pitch) {
            style.warnings.append("pitch: \(pitch) is outside 0...\(Style.maximumPitch); the map clamps it")
        }
        style.glyphs = try root.member("glyphs")?.string()
        style.sprites = try parseSprites(root.member("sprite"))
        if let transition = root.member("transition") {
            _ = try transition.object()
            style.transition.duration = Int64(try transition.member("duration")?.number(in: 0...Double(Int32.max)) ?? 300)
            style.transition.delay = Int64(try transition.member("delay")?.number(in: 0...Double(Int32.max)) ?? 0)
        }
        guard let sources = root.member("sources") else { throw root.failure("missing required property \"sources\"") }
        for (id, _) in try sources.object().members {
            style.sources.append(try StyleSource.parse(id: id, sources.member(id)!, flavor: flavor))
        }
        if flavor.isMapbox {
            try parseMapboxMembers(root, into: &style)
        } else {
            try? parseMapboxMembers(root, into: &style)
        }
        if let projection = root.member("projection") { style.projection = try StyleProjection.parse(projection, flavor: flavor, warnings: &style.warnings) }
        if let terrain = root.member("terrain"), terrain.value != .null { style.terrain = try StyleTerrain.parse(terrain, sources: style.sources, flavor: flavor) }
        if let state = root.member("state") {
            for (name, _) in try state.object().members {
                let entry = state.member(name)!
                _ = try entry.object()
                style.state[name] = entry.member("default")?.value ?? .null
            }
        }
        guard let layers = root.member("layers") else { throw root.failure("missing required property \"layers\"") }
        var seen = Set<String>()
        let fields = try layers.array()
        // Legacy `ref` layers take their referenced layer's type, source, source-layer, zoom range,
        // filter and layout, as the reference's deref does (from the layers as written).
        var byID: [String: JSONObject] = [:]
        for field in fields {
            if let object = field.value.objectValue, let id = object["id"]?.stringValue, byID[id] == nil { byID[id] = object }
        }
        for written in fields {
            var field = written
            if let object = written.value.objectValue, let reference = written.member("ref") {
                let id = try reference.string()
                guard let parent = byID[id] else { throw reference.failure("layer \"\(id)\" not found") }
                field = JSONField(.object(Self.deref(object, parent: parent)), path: written.path)
            }
            let layer = try StyleLayer.parse(field, sources: style.sources, flavor: flavor, warnings: &style.warnings)
            guard seen.insert(layer.id).inserted else { throw field.member("id")!.failure("duplicate layer id \"\(layer.id)\"") }
            style.layers.append(layer.resolvingVisibility(globalState: style.state))
        }
        return style
    }

    /// The properties a legacy `ref` layer takes from the layer it refers to.
    static let refProperties = ["type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout"]

    /// `layer` with `ref` resolved against `parent`.
    static func deref(_ layer: JSONObject, parent: JSONObject) -> JSONObject {
        var result = JSONObject(layer.members.filter { $0.key != "ref" })
        for key in refProperties {
            if let value = parent[key] { result[key] = value }
        }
        return result
    }

    /// Mapbox's root members: `imports`, `schema`, `fragment` and `models`.
    private static func parseMapboxMembers(_ root: JSONField, into style: inout Style) throws(StyleError) {
        if let imports = root.member("imports") {
            style.declaresImports = true
            for entry in try imports.array() { style.imports.append(try StyleImport.parse(entry)) }
        }
        if let schema = root.member("schema") {
            style.hasSchema = true
            for (name, _) in try schema.object().members {
                let option = schema.member(name)!
                _ = try option.object()
                guard let value = option.member("default") else { throw option.failure("missing required property \"default\"") }
                style.configDefaults[name] = value.value
            }
        }
        style.fragment = try root.member("fragment")?.bool()
        if let fog = root.member("fog"), fog.value != .null { style.fog = try fog.object() }
        if let models = root.member("models") {
            for (id, _) in try models.object().members { style.models.append(StyleModel(id: id, url: try models.member(id)!.string())) }
        }
    }

    private static func parseSprites(_ field: JSONField?) throws(StyleError) -> [SpriteSource] {
        guard let field else { return [] }
        if case .string(let url) = field.value { return [SpriteSource(id: "default", url: url)] }
        var sprites: [SpriteSource] = []
        var ids = Set<String>()
        for entry in try field.array() {
            guard let id = entry.member("id") else { throw entry.failure("missing required property \"id\"") }
            guard let url = entry.member("url") else { throw entry.failure("missing required property \"url\"") }
            let sprite = SpriteSource(id: try id.string(), url: try url.string())
            guard ids.insert(sprite.id).inserted else { throw id.failure("duplicate sprite id \"\(sprite.id)\"") }
            sprites.append(sprite)
        }
        return sprites
    }
}

extension StyleSource {
    static func parse(id: String, _ field: JSONField, flavor: StyleSpecFlavor = .maplibre) throws(StyleError) -> StyleSource {
        _ = try field.object()
        guard let type = field.member("type") else { throw field.failure("missing required property \"type\"") }
        let kind = try type.enumeration(Kind.self, allowing: { flavor.isMapbox || !$0.isMapboxOnly })
        var source = StyleSource(id: id, kind: kind)
        if let promote = field.member("promoteId") {
            switch promote.value {
            case .string(let name): source.promoteID = ["": name]
            default:
                var byLayer: [String: String] = [:]
                for (layer, _) in try promote.object().members { byLayer[layer] = try promote.member(layer)?.string() }
                source.promoteID = byLayer
            }
        }
        switch source.kind {
        case .vector, .raster, .rasterDEM, .batchedModel, .rasterArray:
            source.url = try field.member("url")?.string()
            source.tiles = try field.member("tiles")?.strings()
            if source.url == nil && source.tiles == nil {
                throw field.failure("a \(source.kind.rawValue) source needs \"url\" or \"tiles\"")
            }
            if let tiles = source.tiles, tiles.isEmpty { throw field.member("tiles")!.failure("expected at least one tile URL") }
            source.minZoom = try field.member("minzoom")?.integer(in: 0...30)
            source.maxZoom = try field.member("maxzoom")?.integer(in: 0...30)
            if let low = source.minZoom, let high = source.maxZoom, low > high {
                throw field.member("minzoom")!.failure("minzoom \(low) is greater than maxzoom \(high)")
            }
            source.bounds = try field.member("bounds")?.bounds()
            source.scheme = try field.member("scheme")?.enumeration(Scheme.self)
            source.tileSize = try field.member("tileSize")?.integer(in: 1...8192)
            if source.kind == .vector {
                source.tileEncoding = try field.member("encoding")?.enumeration(TileEncoding.self)
            }
            if source.kind == .rasterDEM {
                let kind = try field.member("encoding")?.enumeration(DEMEncoding.Kind.self) ?? .mapbox
                switch kind {
                case .mapbox: source.demEncoding = .mapbox
                case .terrarium: source.demEncoding = .terrarium
                case .custom:
                    source.demEncoding = DEMEncoding(kind: .custom, redFactor: try field.member("redFactor")?.number() ?? 1,
                                                     greenFactor: try field.member("greenFactor")?.number() ?? 1,
                                                     blueFactor: try field.member("blueFactor")?.number() ?? 1,
                                                     baseShift: try field.member("baseShift")?.number() ?? 0)
                }
            }
        case .geojson:
            guard let data = field.member("data") else { throw field.failure("a geojson source needs \"data\"") }
            if case .string(let url) = data.value {
                source.url = url
            } else {
                _ = try data.object()
                source.inlineData = data.value
            }
            source.maxZoom = try field.member("maxzoom")?.integer(in: 0...24)
            source.minZoom = try field.member("minzoom")?.integer(in: 0...24)
            source.generatesIDs = try field.member("generateId")?.bool() ?? false
            source.buffer = try field.member("buffer")?.integer(in: 0...512) ?? 128
        case .image:
            guard let url = field.member("url") else { throw field.failure("an image source needs \"url\"") }
            source.url = try url.string()
            source.coordinates = try field.member("coordinates")?.corners() ?? []
        case .video:
            guard let urls = field.member("urls") else { throw field.failure("a video source needs \"urls\"") }
            source.videoURLs = try urls.strings()
            source.coordinates = try field.member("coordinates")?.corners() ?? []
        case .model:
            if let models = field.member("models") {
                for (modelID, _) in try models.object().members {
                    let model = models.member(modelID)!
                    _ = try model.object()
                    guard let uri = model.member("uri") else { throw model.failure("missing required property \"uri\"") }
                    source.models.append(StyleModel(id: modelID, url: try uri.string()))
                }
            }
        }
        return source
    }
}

extension StyleLayer {
    /// Reads one layer as a style holds it (`{"id", "type", "source", "layout", "filter", ...}`), for a
    /// style whose sources are `sources`, as `Style.addLayer` takes it in the SDKs; what is wrong is an
    /// error naming its place. Its expressions are read in `flavor`'s language.
    public static func parse(_ json: JSONValue, sources: [StyleSource], flavor: StyleSpecFlavor = .maplibre) throws(StyleError) -> StyleLayer {
        var warnings: [String] = []
        return try parse(JSONField(json, path: "layer"), sources: sources, flavor: flavor, warnings: &warnings)
    }

    static func parse(_ field: JSONField, sources: [StyleSource], flavor: StyleSpecFlavor = .maplibre,
                      warnings: inout [String]) throws(StyleError) -> StyleLayer {
        _ = try field.object()
        guard let idField = field.member("id") else { throw field.failure("missing required property \"id\"") }
        let id = try idField.string()
        guard let type = field.member("type") else { throw field.failure("missing required property \"type\"") }
        var layer = StyleLayer(id: id, kind: try type.enumeration(Kind.self, allowing: { $0.isKnown(to: flavor) }))
        layer.minZoom = try field.member("minzoom")?.number(in: 0...24)
        layer.maxZoom = try field.member("maxzoom")?.number(in: 0...24)
        if flavor.isMapbox { layer.slot = try field.member("slot")?.string() }
        switch layer.kind {
        case .background, .sky, .slot:
            break
        default:
            guard let sourceField = field.member("source") else { throw field.failure("missing required property \"source\"") }
            let sourceID = try sourceField.string()
            guard let source = sources.first(where: { $0.id == sourceID }) else {
                throw field.failure("source \"\(sourceID)\" not found")
            }
            layer.source = sourceID
            layer.sourceLayer = try field.member("source-layer")?.string()
            if source.kind == .vector && layer.sourceLayer == nil {
                throw field.failure("layer \"\(id)\" must specify a \"source-layer\" of vector source \"\(sourceID)\"")
            }
        }
        if let layout = field.member("layout") {
            _ = try layout.object()
            if let visibility = layout.member("visibility"), case .string = visibility.value {
                let value = try visibility.string()
                guard value == "visible" || value == "none" else { throw visibility.failure("\"\(value)\" is not one of \"visible\", \"none\"") }
                layer.isVisible = value == "visible"
            }
            if layer.kind == .symbol {
                if let icon = layout.member("icon-image"), case .string(let name) = icon.value, !name.contains("{") {
                    layer.iconImage = name
                }
                if let font = layout.member("text-font"), case .array = font.value, let fonts = try? font.strings() {
                    layer.textFont = fonts
                }
            }
        }
        layer.layout = LayerLayout.compile(try field.object(), kind: layer.kind, path: field.path, flavor: flavor, warnings: &warnings)
        if layer.kind == .raster, let paint = field.member("paint"), let fade = paint.member("raster-fade-duration"), case .number = fade.value {
            layer.rasterFadeDuration = Int64(try fade.number(in: 0...Double(Int32.max)))
        }
        return layer
    }
}
