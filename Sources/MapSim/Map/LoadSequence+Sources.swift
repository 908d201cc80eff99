import MapSimJSON
import MapSimStyle

/// Source metadata: TileJSON, GeoJSON and image requests, and style-loaded once all are in.
extension LoadSequence {
    /// Asks for the metadata of `spec`, a source of the style `resources` resolves the URLs of (the
    /// map's own style when nil).
    mutating func loadMetadata(of spec: StyleSource, resources given: StyleResources? = nil) -> [Action] {
        let resources = given ?? self.resources
        var state = SourceState(spec: spec, metadata: .loaded)
        var actions: [Action] = []
        let scope = StyleScope.split(spec.id).scope
        if var resource = resources.metadata(of: spec) {
            resource.scope = scope
            actions.append(.request(.metadata(spec.id), resource))
            state.metadata = .pending
        } else if spec.kind == .model {
            // A model source is loaded once each of its models is in (or failed).
            for (index, model) in spec.models.enumerated() {
                actions += pageRelativeModelWarning(model, url: model.url, scope: scope)
                var resource = Resource.model(resources.resolve(model.url))
                resource.scope = scope
                actions.append(.request(.model(source: spec.id, scope: scope, index: index), resource))
            }
            state.pendingModels = spec.models.count
            if !spec.models.isEmpty { state.metadata = .pending }
        } else if spec.kind == .geojson {
            state.applyGeoJSON(spec.inlineData ?? .null)
        } else if spec.kind == .video {
            // An engine that plays videos asks for the first URL (the next when one fails).
            if options.engine.ignores[.video] == nil, let resource = resources.video(of: spec, at: 0) {
                actions.append(.request(.metadata(spec.id), resource))
                state.metadata = .pending
            }
        } else {
            let metadata = TileJSON(tiles: spec.tiles ?? []).overridden(by: spec)
            state.apply(metadata, resolvedAgainst: resources.styleURL, resources: resources)
        }
        load.sources.append(state)
        if state.metadata == .loaded {
            actions.append(.emit(.sourceDataLoaded(SourceDataLoaded(id: spec.id, type: .metadata))))
        }
        return actions
    }

    mutating func receiveMetadata(_ response: Response, source id: String, url: String) -> [Action] {
        guard let index = load.sources.firstIndex(where: { $0.spec.id == id }), load.sources[index].metadata != .loaded else { return [] }
        let spec = load.sources[index].spec
        var failure: String?
        if let error = response.error {
            failure = "failed to load source \(StyleScope.quoted(id)) from \(url): \(error.message)"
        } else if let data = response.data {
            switch spec.kind {
            case .vector, .raster, .rasterDEM, .batchedModel, .rasterArray:
                do {
                    let metadata = try TileJSON.parse(data).overridden(by: spec)
                    load.sources[index].apply(metadata, resolvedAgainst: url, resources: resources)
                } catch {
                    failure = "source \(StyleScope.quoted(id)): invalid TileJSON at \(url): \(error)"
                }
            case .geojson:
                do {
                    load.sources[index].applyGeoJSON(try JSONParser.parse(data))
                } catch {
                    failure = "source \(StyleScope.quoted(id)): invalid GeoJSON at \(url): \(error)"
                }
            case .image:
                if !ImageSignature.isImage(data) { failure = "source \(StyleScope.quoted(id)): \(url) is not a PNG, JPEG or WebP image" }
            case .video:
                load.sources[index].videoPlays = true
            case .model:
                break
            }
        } else {
            failure = "source \(StyleScope.quoted(id)): \(url) has no content"
        }
        if let failure, spec.kind == .video {
            // As a video element does, the next source is tried; the map errs when none plays.
            load.sources[index].videoURLIndex += 1
            if let next = resources.video(of: spec, at: load.sources[index].videoURLIndex) { return [.request(.metadata(id), next)] }
            return failSource(index, "source \(StyleScope.quoted(id)): none of its \(spec.videoURLs.count) videos can be played; the last: \(failure)")
        }
        if let failure { return failSource(index, failure) }
        load.sources[index].metadata = .loaded
        return [.emit(.sourceDataLoaded(SourceDataLoaded(id: id, type: .metadata))), .invalidate] + checkStyleLoaded()
    }

    /// A source whose metadata failed: its error. A still image stops there (MapLibre Native fails
    /// the render on a source's error, as on a tile's); an engine that goes on without the source may
    /// have loaded the style now, and a frame is due.
    private mutating func failSource(_ index: Int, _ message: String) -> [Action] {
        load.sources[index].metadata = .failed
        let error = Action.emit(.mapLoadingError(MapLoadingError(type: .source, message: message, sourceID: load.sources[index].spec.id)))
        if options.mode == .still {
            load.phase = .failed(message)
            return [error]
        }
        guard isSettled(load.sources[index]) else { return [error] }
        return [error, .invalidate] + checkStyleLoaded()
    }

    /// Whether a source's metadata is in: loaded, or failed on an engine that goes on without it.
    func isSettled(_ source: SourceState) -> Bool {
        source.metadata == .loaded || (source.metadata == .failed && options.engine.settlesFailedSources)
    }

    mutating func checkStyleLoaded() -> [Action] {
        guard load.phase == .parsed else { return [] }
        var actions: [Action] = []
        let allSources = load.sources.allSatisfy(isSettled)
        if allSources && !load.sourcesEventSent {
            load.sourcesEventSent = true
            actions.append(.emit(.styleDataLoaded(StyleDataLoaded(type: .sources))))
        }
        // A Mapbox style is loaded once its imports are in.
        let importsIn = !load.imports.isActive || load.imports.isMerged
        if allSources && load.sprite.isSettled && importsIn && !load.isStyleLoaded {
            load.isStyleLoaded = true
            actions.append(.emit(.styleLoaded))
            actions.append(.invalidate)
        }
        return actions
    }
}
