import MapSim
import MapSimJSON
import MapSimStyle
import MapSimTrace
import Synchronization

/// `mapsim validate --deep`: loads a style through an environment, at the style's own camera, and
/// reports what does not resolve.
public enum DeepValidator {
    /// Diagnostics for every resource that failed to load (once each); for every layer the images
    /// its features use (icons, patterns) that the sprite lacks, and a `source-layer` that no loaded
    /// tile of its source has; and, as warnings, each `["get", FIELD]` whose field no loaded feature
    /// of the layer's source layer has. `bytes` is the style's text, for line numbers and paths. The
    /// environment's map options say how often a failure is retried.
    ///
    /// A Mapbox engine loads the style's `imports`: each imported style is fetched and read, and its
    /// sources, sprites, glyphs, models and layers checked as the root's are; what goes wrong in
    /// one is named by its chain of imports (`import basemap → landmarks: …`). For an engine
    /// without imports (MapLibre's) a style with imports gets one warning that they are ignored,
    /// unless `warnsOfIgnoredImports` is false (a caller whose static check has said so already).
    /// `config` values (import id — "" for the root style —, name, value) are set before the style
    /// loads, as `load --config` sets them, so a config that shows a layer checks what it needs.
    ///
    /// The load has `timeout` to reach map-idle (`validate --deep --timeout`). A load that does not
    /// while requests still wait is an error naming them, unless it never goes idle by design (a
    /// video plays): then what loaded by then is checked. One that never goes idle because a GeoJSON
    /// tile failed on a glyph range (Mapbox GL JS) is an error naming the source and the range. `onEvent` sees every event of the load,
    /// for progress. `givenAsJSON` hands the map `bytes` as a style's JSON (setStyleJSON: a style
    /// read from standard input) instead of having it load `styleURL`, against which its relative
    /// URLs still resolve.
    public static func validate(styleURL: String, bytes: [UInt8], givenAsJSON: Bool = false, environment: LoadingEnvironment,
                                config: [(importID: String, name: String, value: JSONValue?)] = [], timeout: SimTime = .seconds(60),
                                warnsOfIgnoredImports: Bool = true, onEvent: (@Sendable (MapEvent) -> Void)? = nil) async -> [StyleDiagnostic] {
        let map = environment.makeMap()
        let progress = onEvent.map { map.subscribeAll($0) }
        let unanswered = Mutex<[String]>([])
        for setting in config { await map.setConfigProperty(setting.importID, setting.name, setting.value) }
        let errors = Mutex<[MapLoadingError]>([])
        let glyphRanges = Mutex<[Resource]>([])
        let failedGlyphRanges = Mutex<[String]>([])
        let importedURLs = Mutex<[String: StyleScope]>([:])
        let subscription = map.subscribe(MapEvents.mapLoadingError) { event in errors.withLock { $0.append(event.payload) } }
        let requests = map.subscribe(MapEvents.resourceRequest) { event in
            let request = event.payload
            if request.cancelled, request.response?.error != nil { unanswered.withLock { $0.append(request.request.url) } }
            if !request.request.scope.isRoot { importedURLs.withLock { $0[request.request.url] = request.request.scope } }
            if request.request.kind == .glyphs, request.response?.error != nil {
                failedGlyphRanges.withLock { if !$0.contains(request.request.url) { $0.append(request.request.url) } }
            }
            guard request.request.kind == .glyphs, request.response?.data != nil || request.response?.size ?? 0 > 0 else { return }
            glyphRanges.withLock { if !$0.contains(where: { $0.url == request.request.url }) { $0.append(request.request) } }
        }
        if givenAsJSON {
            await map.setStyleJSON(bytes: bytes, baseURL: styleURL)
        } else {
            await map.setStyleURI(styleURL)
        }
        let outcome = await map.run(until: .mapIdle, timeout: timeout)
        let reason = "no answer within the \(timeout.shortDescription) --timeout"
        if case .timedOut = outcome { await map.giveUp(reason) }
        let playingVideos = await map.readout.playingVideos
        let glyphFailedSources = await map.readout.glyphFailedGeoJSONSources
        subscription.cancel()
        requests.cancel()
        progress?.cancel()
        let glyphWarnings = await glyphFlaws(glyphRanges.withLock { $0 }, map: map, engine: environment.mapOptions.engine)
        let sprite = await map.spriteImageNames
        let style = await map.style
        let data = await map.tileData
        let imports = await map.importedStyles
        let scopes = importedURLs.withLock { $0 }

        let redactor = URLRedactor()
        // A resource that failed more than once (retried, or revalidated) is reported once.
        var seen = Set<String>()
        var diagnostics = errors.withLock { $0 }.compactMap { error -> StyleDiagnostic? in
            let message = redactor.redact("\(error.type.rawValue): \(Self.naming(error, scopes: scopes))")
            return seen.insert(message).inserted ? StyleDiagnostic(message: message, line: nil) : nil
        }
        // A load that stopped waiting (a failed TileJSON: no map-loaded) has said why in its errors.
        let waited = unanswered.withLock { $0 }
        if case .timedOut = outcome, playingVideos.isEmpty, let first = waited.first {
            let message = "the load did not reach map-idle within the \(timeout.shortDescription) --timeout: "
                + "\(waited.count) request\(waited.count == 1 ? "" : "s") had no answer, first: \(first)"
            diagnostics.append(StyleDiagnostic(message: redactor.redact(message), line: nil))
        }
        // Mapbox GL JS never goes idle once a GeoJSON tile failed on its glyphs: the load says why.
        if case .timedOut = outcome, !glyphFailedSources.isEmpty, let range = failedGlyphRanges.withLock({ $0.first }) {
            let message = "glyphs: the map never goes idle: the text of GeoJSON source \(glyphFailedSources.joined(separator: ", ")) needs \(range), "
                + "which could not be loaded, and \(environment.mapOptions.engine) fails such tiles, then their parents"
            diagnostics.append(StyleDiagnostic(message: redactor.redact(message), line: nil))
        }
        diagnostics += glyphWarnings.map { StyleDiagnostic(message: redactor.redact($0), line: nil, isWarning: true) }
        let document = try? JSONParser.parse(bytes)
        let lines = JSONLineIndex(scanning: bytes)
        let engine = environment.mapOptions.engine
        if warnsOfIgnoredImports, engine.imports == nil, let message = engine.ignores[.imports], !(document?["imports"]?.arrayValue ?? []).isEmpty {
            diagnostics.append(StyleDiagnostic(message: "imports: \(message)", line: lines.line("imports"), isWarning: true))
        }
        guard let style else { return diagnostics }
        let written = document?["layers"]?.arrayValue ?? []
        var styles: [StyleScope: (style: Style, written: [JSONValue])] = [.root: (style, written)]
        for imported in imports where styles[imported.scope] == nil { styles[imported.scope] = (imported.style, []) }
        for layer in style.layers {
            let (name, scope) = StyleScope.split(layer.id)
            guard let own = styles[scope] else { continue }
            // The layer's place in its own style as written (a Mapbox engine's merge orders layers by slot).
            let ownIDs = scope.isRoot ? written.map { $0["id"]?.stringValue } : own.style.layers.map { StyleScope.split($0.id).name as String? }
            let index = ownIDs.firstIndex(of: name) ?? 0
            let prefix = scope.isRoot ? "" : "import \(scope.chain): "
            let lineOf: (String) -> Int? = { scope.isRoot ? lines.line($0) : nil }
            let images = Self.images(of: scope, in: sprite)
            diagnostics += missingImages(layer, index: index, sprite: images, used: data.imagesByLayer[layer.id] ?? [],
                                         checksSprite: !own.style.sprites.isEmpty, prefix: prefix, line: lineOf)
            guard let sourceID = layer.source, let source = data.sources[sourceID] else { continue }
            let kind = style.source(id: sourceID)?.kind
            let sourceName = StyleScope.split(sourceID).name
            if kind == .vector, let name = layer.sourceLayer, source.layers[name] == nil {
                let path = "layers[\(index)].source-layer"
                // The view's own zoom: a lower one prefetched (MapLibre Native) says nothing more.
                let zoom = source.zooms.max().map(String.init) ?? "none"
                diagnostics.append(StyleDiagnostic(message: "\(prefix)\(path): source layer \"\(name)\" is in no tile of source \"\(sourceName)\" (loaded at zoom \(zoom))",
                                                   line: lineOf(path)))
                continue
            }
            let sourceLayer = kind == .geojson ? "" : layer.sourceLayer ?? ""
            guard index < own.written.count, let fields = source.layers[sourceLayer], fields.featureCount > 0 else { continue }
            for (path, field) in fieldReads(in: own.written[index], path: "layers[\(index)]") where !fields.fields.contains(field) {
                let owner = kind == .geojson ? "source \"\(sourceName)\"" : "source layer \"\(sourceLayer)\""
                diagnostics.append(StyleDiagnostic(message: "\(prefix)\(path): no feature of \(owner) has the field \"\(field)\"", line: lineOf(path), isWarning: true))
            }
        }
        return diagnostics
    }

    /// A map loading error's message, named by the import it is about: a scoped source by the
    /// import's chain and its own id, a resource an import asked for by the import's chain (a
    /// message about an import's style names it already).
    private static func naming(_ error: MapLoadingError, scopes: [String: StyleScope]) -> String {
        guard !error.message.hasPrefix("import ") else { return error.message }
        if let id = error.sourceID, id.contains(StyleScope.separator) {
            let (name, scope) = StyleScope.split(id)
            return "import \(scope.chain): " + error.message.replacing(id, with: name)
        }
        guard let scope = scopes.first(where: { error.message.contains($0.key) })?.value else { return error.message }
        return "import \(scope.chain): \(error.message)"
    }

    /// The names of `scope`'s sprite images among `images` (named in their scopes), as its layers name them.
    private static func images(of scope: StyleScope, in images: Set<String>) -> Set<String> {
        Set(images.compactMap { image in
            let (name, imageScope) = StyleScope.split(image)
            return imageScope == scope ? name : nil
        })
    }

    /// What the engine makes of glyphs that break the format's rules in the ranges the load used:
    /// GL JS cannot read a range with a glyph whose bitmap is not its size and draws the range with
    /// a local font; MapLibre Native skips such glyphs and those missing a required field. (A glyph
    /// GL JS fails a tile for is an error of the load itself.)
    private static func glyphFlaws(_ ranges: [Resource], map: Map, engine: Engine) async -> [String] {
        guard !ranges.isEmpty else { return [] }
        let answers = await map.fetch(ranges, timeout: .seconds(30))
        var warnings: [String] = []
        for (range, answer) in zip(ranges, answers) {
            guard let data = answer.data, let set = try? GlyphSet.decode(data) else { continue }
            if engine.glyphs.drawsFailedRangesLocally {
                if let flaw = set.mismatchedBitmaps.first {
                    warnings.append("glyphs \(range.url): glyph \(flaw.codePoint) has \(flaw.reason): \(engine) cannot read the range (\(flaw.glJSMessage ?? flaw.reason)) and draws it with a local font")
                }
            } else if let flaw = (set.unsized + set.mismatchedBitmaps + set.skippedByNative).first {
                let count = set.unsized.count + set.mismatchedBitmaps.count + set.skippedByNative.count
                warnings.append("glyphs \(range.url): \(engine) skips glyph \(flaw.codePoint)\(count > 1 ? " (and \(count - 1) more)" : ""): \(flaw.reason)")
            }
        }
        return warnings
    }

    /// The images a layer needs that the sprite lacks: its constant `icon-image`, and every image
    /// its features asked for (icons, patterns), each once.
    private static func missingImages(_ layer: StyleLayer, index: Int, sprite: Set<String>, used: Set<String>, checksSprite: Bool,
                                      prefix: String, line: (String) -> Int?) -> [StyleDiagnostic] {
        let property: String
        switch layer.kind {
        case .fill: property = "paint.fill-pattern"
        case .line: property = "paint.line-pattern"
        case .fillExtrusion: property = "paint.fill-extrusion-pattern"
        default: property = "layout.icon-image"
        }
        // An import's layers name its images in its scope: checked by their own names.
        var images = Set(used.map { StyleScope.split($0).name })
        // An empty icon-image is no icon, as the SDKs read it.
        if let icon = layer.iconImage.map({ StyleScope.split($0).name }), !icon.isEmpty { images.insert(icon) }
        guard checksSprite || layer.iconImage != nil else { return [] }
        let path = "layers[\(index)].\(property)"
        return images.subtracting(sprite).sorted().map { image in
            StyleDiagnostic(message: "\(prefix)\(path): image \"\(image)\" is not in the sprite", line: line(path))
        }
    }

    /// Every `["get", FIELD]` (of the feature, with a literal field name) in a layer's filter,
    /// layout and paint, with its JSON path.
    private static func fieldReads(in layer: JSONValue, path: String) -> [(path: String, field: String)] {
        var reads: [(String, String)] = []
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .array(let items):
                if items.count == 2, items[0] == .string("get"), case .string(let field) = items[1] {
                    reads.append((path, field))
                    return
                }
                for (offset, item) in items.enumerated() { walk(item, "\(path)[\(offset)]") }
            case .object(let object):
                for member in object.members { walk(member.value, "\(path).\(member.key)") }
            default:
                break
            }
        }
        if let filter = layer["filter"] { walk(filter, path + ".filter") }
        for group in ["layout", "paint"] {
            if let properties = layer[group] { walk(properties, "\(path).\(group)") }
        }
        return reads
    }
}
