import MapSimJSON
import MapSimStyle

/// Mapbox style imports, as Mapbox GL JS v3 loads them (`Style._load`, `_loadImports`, `mergeAll`):
/// each style's own sources, sprite and models are asked for when its JSON arrives, then its
/// imports' styles, in order; an inline import (`data`) or a style already loaded needs no request
/// and follows its siblings. Everything an import declares is named in its scope. Once no import is
/// loading, their layers are merged — each style's imports before it, a layer with a `slot` into
/// the slot of that name seen before it — and only then do the imports' tiles start and the style
/// count as loaded. A failed import is a map-loading-error naming its chain of imports; an engine
/// whose `failedImportBlocks` waits for it for ever (Mapbox GL JS 3.0.1), the SDK goes on without it.
extension LoadSequence {
    /// How deep styles nest at most, the root included (Mapbox's `MAX_IMPORT_DEPTH`).
    static let maximumImportDepth = StyleImport.maximumDepth

    /// The name the root style is imported under when it is a fragment or has a schema.
    static let wrappedRootImportID = "basemap"

    /// Starts the tree of `root`, the style the map loads, once its own parts were asked for: its
    /// models, then its imports.
    mutating func startImportTree(root: Style) -> [Action] {
        var tree = ImportTree()
        let url = styleURL.map(normalizedStyleURL)
        _ = tree.add(ImportTree.Node(scope: .root, url: styleURL ?? "", resources: resources, ancestorURLs: url.map { [$0] } ?? [],
                                     status: .loaded, style: root, config: root.configDefaults), childOf: nil)
        load.imports = tree
        return loadModels(of: 0) + startImports(of: 0) + checkImportsSettled()
    }

    /// The style URL `url` as the engine requests it: `mapbox://styles/…` on the Styles API with
    /// the engine's query (`sdk=js-3.0.1`) and the token, any other URL as it is.
    func normalizedStyleURL(_ url: String) -> String {
        StyleResources(styleURL: nil, mapbox: options.mapbox).importedStyle(url, query: options.engine.imports?.styleURLQuery)
    }

    /// The resolver of the URLs of `scope`'s style: relative URLs resolve against that style's own URL.
    func resources(for scope: StyleScope) -> StyleResources {
        guard !scope.isRoot, let index = load.imports.index(of: scope) else { return resources }
        return load.imports[index].resources
    }

    /// The style of `scope` as written, when it is loaded.
    func importedStyle(_ scope: StyleScope) -> Style? {
        guard let index = load.imports.index(of: scope) else { return scope.isRoot ? load.style : nil }
        return load.imports[index].style
    }

    /// What `["config", NAME]` reads in `scope`'s layers: the import's config over its schema's
    /// defaults, and what the map set over both (the root's and top-level imports' only). An engine
    /// that reads config everywhere also finds its direct imports' values under `NAME␟ID`, for
    /// `["config", NAME, ID]`.
    func config(of scope: StyleScope) -> JSONObject {
        guard let index = load.imports.index(of: scope) else { return JSONObject() }
        var config = ownConfig(of: index)
        guard options.engine.imports?.readsConfigEverywhere == true else { return config }
        for child in load.imports[index].children {
            let id = load.imports[child].scope.path.last ?? ""
            for (name, value) in ownConfig(of: child).members { config[name + String(StyleScope.separator) + id] = value }
        }
        return config
    }

    /// The config of the style at `index` alone, with the values set through the map.
    private func ownConfig(of index: Int) -> JSONObject {
        let node = load.imports[index]
        var config = node.config
        let settable = node.scope.isRoot ? "" : node.scope.depth == 1 ? node.scope.path[0] : nil
        if let settable, let values = configValues[settable] {
            for (name, value) in values.members { config[name] = value }
        }
        return config
    }

    /// Sets config `name` of the import `importID` ("" for the root style): once the style is
    /// loaded, that style's visibilities are applied again and its sources' tiles laid out again.
    mutating func setConfig(importID: String, name: String, to value: JSONValue?) -> [Action] {
        var values = configValues[importID] ?? JSONObject()
        let before = values[name]
        values[name] = value
        configValues[importID] = values
        guard load.phase == .parsed, load.imports.isMerged, before != value else { return [] }
        let scope = importID.isEmpty ? StyleScope.root : StyleScope(path: [importID])
        guard load.imports.index(of: scope) != nil else {
            return [.emit(.mapLoadingError(MapLoadingError(type: .style, message: "cannot set config \"\(name)\" of import \"\(importID)\": Style import not found: \(importID)")))]
        }
        let config = config(of: scope)
        let state = globalState
        var actions = configWarnings(importID: importID, names: [name])
        let layers = (load.style?.layers ?? []).map { layer in
            StyleScope.split(layer.id).scope == scope ? layer.resolvingVisibility(globalState: state, config: config) : layer
        }
        load.style?.layers = layers
        for index in load.sources.indices where StyleScope.split(load.sources[index].spec.id).scope == scope {
            switch load.sources[index].spec.kind {
            case .vector, .geojson: actions += layOutAgain(source: load.sources[index].spec.id)
            default: continue
            }
        }
        for index in load.sources.indices { load.sources[index].lastView = nil }
        return actions + [.invalidate]
    }

    /// What the engine takes without a word but a user would want to hear of, for the values the map
    /// set on the import `importID` ("" for the root): a name its `schema` does not declare (a typo
    /// reads nothing: only a layer that asks for that very name would), and a value, not an
    /// expression, whose JSON type is not its default's (`"False"`, a string, where the default is `false`).
    private func configWarnings(importID: String, names: [String]) -> [Action] {
        let scope = importID.isEmpty ? StyleScope.root : StyleScope(path: [importID])
        guard let index = load.imports.index(of: scope), let style = load.imports[index].style, style.hasSchema,
              let values = configValues[importID] else { return [] }
        let declared = style.configDefaults.members.map(\.key).sorted()
        let option = importID.isEmpty ? "the style's config" : "config of import \(importID)"
        return names.compactMap { name in
            guard let value = values[name], value != .null else { return nil }
            guard let fallback = style.configDefaults[name] else {
                return warning("\(option): \"\(name)\" is not in its schema (\(declared.joined(separator: ", "))); only a layer that asks for \"\(name)\" reads it", in: scope)
            }
            // A value may be an expression (an array), which the engine evaluates: no type to compare.
            guard fallback.typeName != value.typeName, fallback != .null, value.arrayValue == nil else { return nil }
            return warning("\(option): \"\(name)\" is set to \(JSONWriter.string(value)), a \(value.typeName), where its default is \(JSONWriter.string(fallback)), a \(fallback.typeName)", in: scope)
        }
    }

    /// Asks for the imports of the style at `index`, in order: a URL not loaded before is requested;
    /// an inline style, one loaded before and an empty one follow once every sibling is asked for.
    private mutating func startImports(of index: Int) -> [Action] {
        let node = load.imports[index]
        guard let style = node.style, !style.imports.isEmpty else { return [] }
        guard node.scope.depth < Self.maximumImportDepth - 1 else {
            let ids = style.imports.map { "\"\($0.id)\"" }.joined(separator: ", ")
            return [warning("\(describe(node.scope)) imports \(ids), which are not loaded: styles nest at most \(Self.maximumImportDepth) deep, the root included", in: node.scope)]
        }
        var actions: [Action] = []
        var following: [(Int, ImportedJSON)] = []
        var ids = Set<String>()
        for entry in style.imports {
            let scope = node.scope.child(entry.id)
            if !ids.insert(entry.id).inserted {
                actions.append(warning("\(describe(node.scope)) has two imports with the id \"\(entry.id)\": both load into one scope, the later one's sources in place of the earlier's", in: scope))
            }
            let url = entry.url.isEmpty ? "" : node.resources.importedStyle(entry.url, query: options.engine.imports?.styleURLQuery)
            // A style importing one of the styles above it: Mapbox GL JS compares the URL as written
            // with theirs as requested, so a mapbox:// cycle goes on until the depth limit.
            if !entry.url.isEmpty, node.ancestorURLs.contains(MapboxURL.isMapbox(entry.url) ? entry.url : url) {
                actions.append(warning("\(describe(scope)) imports \(entry.url), which imports it: a cycle, loaded as an empty style", in: scope))
                continue
            }
            var child = ImportTree.Node(scope: scope, url: entry.url, resources: StyleResources(styleURL: url.isEmpty ? node.resources.styleURL : url,
                                                                                                  mapbox: options.mapbox),
                                        ancestorURLs: url.isEmpty ? node.ancestorURLs : node.ancestorURLs.union([url]), status: .loading)
            child.importConfig = entry.config
            let childIndex = load.imports.add(child, childOf: index)
            if let data = entry.data {
                following.append((childIndex, .document(data)))
            } else if let loaded = load.imports.loadedJSON[url] {
                following.append((childIndex, .bytes(loaded)))
            } else if url.isEmpty {
                following.append((childIndex, .document(.object(JSONObject([("version", .number(8)), ("sources", .object(JSONObject())),
                                                                             ("layers", .array([]))])))))
            } else {
                var resource = Resource.style(url)
                resource.scope = scope
                actions.append(.request(.importedStyle(childIndex), resource))
            }
        }
        for (childIndex, json) in following { actions += parseImport(childIndex, json) }
        return actions
    }

    /// A style JSON an import loads from.
    private enum ImportedJSON {
        case bytes([UInt8])
        case document(JSONValue)
    }

    /// The answer to an import's style request.
    mutating func receiveImportedStyle(_ response: Response, node index: Int, url: String) -> [Action] {
        guard load.imports.isActive, index < load.imports.nodes.count, load.imports[index].status == .loading else { return [] }
        if let error = response.error {
            return [.cancel(.importedStyle(index))] + failImport(index, "failed to load its style \(url): \(error.message)")
        }
        guard let data = response.data else { return failImport(index, "its style \(url) has no content") }
        load.imports.loadedJSON[url] = data
        return parseImport(index, .bytes(data))
    }

    /// Reads the style of the import at `index` and loads its parts, then its own imports.
    private mutating func parseImport(_ index: Int, _ json: ImportedJSON) -> [Action] {
        let scope = load.imports[index].scope
        var warnings: [Action] = []
        // Checked first, as the root is; an inline import was checked with the style that holds it.
        if case .bytes(let bytes) = json {
            let check = validationCheck(of: bytes, scope: scope)
            if let refusal = check.refusal { return failImport(index, "its style does not load: \(refusal)") }
            warnings = check.warnings
        }
        let style: Style
        do {
            switch json {
            case .bytes(let bytes): style = try Style.parse(bytes, flavor: options.engine.flavor)
            case .document(let document): style = try Style.parse(document, flavor: options.engine.flavor)
            }
        } catch {
            return failImport(index, "its style does not load: \(error)")
        }
        var config = load.imports[index].importConfig
        for (name, value) in style.configDefaults.members where config[name] == nil { config[name] = value }
        load.imports[index].config = config
        load.imports[index].style = style.scoped(scope)
        load.imports[index].status = .loaded
        return warnings + loadParts(of: index) + loadModels(of: index) + startImports(of: index) + checkImportsSettled()
    }

    /// An import failed: said with its chain; the style goes on without it, or — when a failed import
    /// blocks — never loads.
    private mutating func failImport(_ index: Int, _ message: String) -> [Action] {
        load.imports[index].status = .failed
        let error = MapLoadingError(type: .style, message: "\(describe(load.imports[index].scope)): \(message)")
        return [.emit(.mapLoadingError(error))] + checkImportsSettled()
    }

    /// An import's sources and sprite, scoped to it.
    private mutating func loadParts(of index: Int) -> [Action] {
        guard let style = load.imports[index].style else { return [] }
        let node = load.imports[index]
        var actions: [Action] = []
        for source in style.sources {
            // Two imports with one id share a scope: the later one's source replaces the earlier's.
            if let existing = load.sources.firstIndex(where: { $0.spec.id == source.id }) {
                if load.sources[existing].metadata == .pending { actions.append(.cancel(.metadata(source.id))) }
                load.sources.remove(at: existing)
                load.style?.sources.removeAll { $0.id == source.id }
            }
            load.style?.sources.append(source)
            actions += loadMetadata(of: source, resources: node.resources)
        }
        for sheet in style.sprites {
            let sheetIndex = load.sprite.add(sheet, scope: node.scope)
            var json = node.resources.spriteJSON(sheet, pixelRatio: viewport.pixelRatio)
            var image = node.resources.spriteImage(sheet, pixelRatio: viewport.pixelRatio)
            json.scope = node.scope
            image.scope = node.scope
            actions += [.request(.spriteJSON(sheetIndex), json), .request(.spriteImage(sheetIndex), image)]
        }
        return actions
    }

    /// The models a style names (`models`), fetched when it loads; the map is not idle until they settle.
    private mutating func loadModels(of index: Int) -> [Action] {
        guard let style = load.imports[index].style else { return [] }
        let node = load.imports[index]
        var actions: [Action] = []
        for (modelIndex, model) in style.models.enumerated() {
            load.pendingModels += 1
            let url = options.mapbox.model(model.url)
            actions += pageRelativeModelWarning(model, url: url, scope: node.scope)
            var resource = Resource.model(node.resources.resolve(url))
            resource.scope = node.scope
            actions.append(.request(.model(source: nil, scope: node.scope, index: modelIndex), resource))
        }
        return actions
    }

    /// A warning, for an engine that resolves a model's relative URL against the web page, that
    /// mapsim resolves it against the style instead; nothing for an absolute URL or another engine.
    func pageRelativeModelWarning(_ model: StyleModel, url: String, scope: StyleScope) -> [Action] {
        guard options.engine.requests.resolvesModelURLsAgainstPage, URLResolver.scheme(of: url) == nil else { return [] }
        return [warning("\(describe(scope)) names model \"\(model.id)\" by the relative URL \(model.url): \(options.engine.name.rawValue) resolves it against "
                        + "the web page, not the style; mapsim resolves it against the style, as if the page were beside it", in: scope)]
    }

    /// The answer to a model request: a model that does not load is an error that stops nothing.
    mutating func receiveModel(_ response: Response, source id: String?, scope: StyleScope, index: Int, url: String) -> [Action] {
        var actions: [Action] = []
        if let error = response.error {
            actions.append(.cancel(.model(source: id, scope: scope, index: index)))
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .source, message: "could not load model \(url): \(error.message)", sourceID: id))))
        } else if response.data?.isEmpty ?? true {
            actions.append(.emit(.mapLoadingError(MapLoadingError(type: .source, message: "could not load model \(url): it has no content", sourceID: id))))
        }
        if let id, let sourceIndex = load.sources.firstIndex(where: { $0.spec.id == id }), load.sources[sourceIndex].pendingModels > 0 {
            load.sources[sourceIndex].pendingModels -= 1
            if load.sources[sourceIndex].pendingModels == 0 {
                load.sources[sourceIndex].metadata = .loaded
                actions += [.emit(.sourceDataLoaded(SourceDataLoaded(id: id, type: .metadata))), .invalidate] + checkStyleLoaded()
            }
        } else if id == nil, load.pendingModels > 0 {
            load.pendingModels -= 1
            actions.append(.invalidate)
        }
        return actions
    }

    /// Once no import is loading (and none failed, where a failure blocks), their layers join the
    /// map's style in Mapbox's order, and the style may count as loaded.
    private mutating func checkImportsSettled() -> [Action] {
        guard load.imports.isActive, !load.imports.isMerged,
              load.imports.isSettled(failedImportBlocks: options.engine.imports?.failedImportBlocks ?? false) else { return [] }
        load.imports.isMerged = true
        mergeImportedLayers()
        // A value set before the style loaded, for an import the style does not have at its top
        // level, is refused now, as setting it later is (a nested import's config is not settable).
        var actions: [Action] = configValues.keys.sorted().compactMap { importID in
            guard !importID.isEmpty, load.imports.index(of: StyleScope(path: [importID])) == nil,
                  let names = configValues[importID]?.members.map({ $0.key }), !names.isEmpty else { return nil }
            let named = names.map { "\"\($0)\"" }.joined(separator: ", ")
            return .emit(.mapLoadingError(MapLoadingError(type: .style, message: "cannot set config \(named) of import \"\(importID)\": Style import not found: \(importID)")))
        }
        for importID in configValues.keys.sorted() {
            actions += configWarnings(importID: importID, names: configValues[importID]?.members.map(\.key).sorted() ?? [])
        }
        if let styleCamera = load.waitingCamera {
            load.waitingCamera = nil
            actions += takeStyleCamera(styleCamera)
        }
        if let delay = options.engine.imports?.rootLayoutDelay, load.imports.nodes.count > 1 {
            load.rootLayoutToken = nextUpdateToken
            nextUpdateToken += 1
            actions.append(.scheduleRootLayout(token: nextUpdateToken - 1, after: delay))
        } else {
            actions += settleTilesThatWaitedForImports()
        }
        return actions + [.invalidate] + checkStyleLoaded()
    }

    /// The layers of every loaded style, ordered as Mapbox's `mergeLayers` orders them: a post-order
    /// walk (a style's imports first, then the style) in which a `slot` layer keeps a place the
    /// first time its name is seen, and a layer whose `slot` names a place already kept goes there;
    /// any other layer — an unknown or later slot too — stays where it is. The last style of the
    /// walk that has terrain or a projection gives the map its own.
    private mutating func mergeImportedLayers() {
        var slots: [String: [StyleLayer]] = [:]
        var main: [StyleLayer] = []
        var terrain = load.style?.terrain
        var projection = load.style?.projection ?? .mercator
        for index in load.imports.postOrder where load.imports[index].status == .loaded {
            guard let style = load.imports[index].style else { continue }
            let layers = index == 0 ? (load.style?.layers ?? []) : style.layers
            for layer in layers {
                if layer.kind == .slot {
                    let name = StyleScope.split(layer.id).name
                    guard slots[name] == nil else { continue }
                    slots[name] = []
                    main.append(layer)
                } else if let slot = layer.slot, slots[slot] != nil {
                    slots[slot]?.append(layer)
                } else {
                    main.append(layer)
                }
            }
            if let own = style.terrain { terrain = own }
            if style.projection != .mercator { projection = style.projection }
        }
        var merged: [StyleLayer] = []
        var placed = Set<String>()
        for layer in main {
            let group = layer.kind == .slot ? slots[StyleScope.split(layer.id).name] ?? [] : [layer]
            for member in group where placed.insert(member.id).inserted {
                merged.append(member.resolvingVisibility(globalState: globalState, config: config(of: StyleScope.split(member.id).scope)))
            }
        }
        load.style?.layers = merged
        load.style?.terrain = terrain
        load.style?.projection = projection
    }

    /// How messages name a scope: `the style` for the root, `import a → a2` for an import.
    func describe(_ scope: StyleScope) -> String {
        scope.isRoot ? "the style" : "import \(scope.chain)"
    }

    private func warning(_ message: String, in scope: StyleScope) -> Action {
        .emit(.styleWarning(StyleWarning(message: message, scope: scope)))
    }
}
