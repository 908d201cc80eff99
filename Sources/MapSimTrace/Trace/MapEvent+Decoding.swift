import MapSim
import MapSimJSON
import MapSimStyle

extension MapEvent {
    /// Reads an event from its JSON-line object: `{"type", "begin", "end", "data"}`.
    public init(json: JSONObject) throws(TraceError) {
        guard let typeName = json[EventKey.type]?.stringValue, let type = MapEventType(rawValue: typeName) else {
            throw TraceError(.malformed, "unknown event type \(json[EventKey.type].map(JSONWriter.string) ?? "(missing)")")
        }
        // Whole microseconds the clock can hold: 1e300 or 2.5 is no time (and must not trap).
        guard let begin = json[EventKey.begin]?.numberValue.flatMap({ Int64(exactly: $0) }),
              let end = json[EventKey.end]?.numberValue.flatMap({ Int64(exactly: $0) }) else {
            throw TraceError(.malformed, "\(typeName) without integer \"begin\" and \"end\" (whole microseconds)")
        }
        let data = JSONField(json[EventKey.data] ?? .object(JSONObject()), path: "data")
        do {
            self.init(begin: SimTime(microseconds: begin), end: SimTime(microseconds: end), payload: try Self.payload(type, data))
        } catch {
            throw TraceError(.malformed, "\(typeName): \(error)", underlying: error)
        }
    }

    private static func payload(_ type: MapEventType, _ data: JSONField) throws(StyleError) -> MapEventPayload {
        func string(_ key: String) throws(StyleError) -> String {
            guard let field = data.member(key) else { throw data.failure("missing \"\(key)\"") }
            return try field.string()
        }
        func bool(_ key: String) throws(StyleError) -> Bool {
            guard let field = data.member(key) else { throw data.failure("missing \"\(key)\"") }
            return try field.bool()
        }
        func tile(_ field: JSONField?) throws(StyleError) -> CanonicalTileID? {
            guard let field else { return nil }
            let z = try field.member(EventKey.z)?.integer(in: 0...30) ?? 0
            let x = try field.member(EventKey.x)?.integer(in: 0...(1 << z) - 1) ?? 0
            let y = try field.member(EventKey.y)?.integer(in: 0...(1 << z) - 1) ?? 0
            return CanonicalTileID(z: z, x: x, y: y)
        }
        func enumeration<E: RawRepresentable<String>>(_ key: String, _: E.Type) throws(StyleError) -> E {
            let raw = try string(key)
            guard let value = E(rawValue: raw) else { throw data.member(key)!.failure("unknown value \"\(raw)\"") }
            return value
        }
        /// The name under `key`, scoped to the import `import` names, when there is one.
        func scoped(_ key: String) throws(StyleError) -> String {
            let name = try string(key)
            guard let path = try data.member(EventKey.styleImport)?.string() else { return name }
            return StyleScope(parsing: path).qualify(name)
        }
        switch type {
        case .mapLoaded: return .mapLoaded
        case .mapIdle: return .mapIdle
        case .styleLoaded: return .styleLoaded
        case .renderFrameStarted: return .renderFrameStarted
        case .cameraChanged: return .cameraChanged
        case .mapLoadingError:
            return .mapLoadingError(MapLoadingError(type: try enumeration(EventKey.type, MapLoadingError.Kind.self), message: try string(EventKey.message),
                                                    sourceID: data.member(EventKey.sourceID) == nil ? nil : try scoped(EventKey.sourceID), tileID: try tile(data.member(EventKey.tileID))))
        case .styleDataLoaded:
            return .styleDataLoaded(StyleDataLoaded(type: try enumeration(EventKey.type, StyleDataLoaded.Kind.self)))
        case .styleImageMissing: return .styleImageMissing(id: try scoped(EventKey.id))
        case .styleImageRemoveUnused: return .styleImageRemoveUnused(id: try scoped(EventKey.id))
        case .styleFeatureIgnored:
            return .styleFeatureIgnored(StyleFeatureIgnored(feature: try enumeration(EventKey.feature, StyleFeature.self), engine: try string(EventKey.engine),
                                                            message: try string(EventKey.message)))
        case .styleWarning:
            return .styleWarning(StyleWarning(message: try string(EventKey.message),
                                              scope: StyleScope(parsing: try data.member(EventKey.styleImport)?.string() ?? "")))
        case .sourceAdded: return .sourceAdded(id: try scoped(EventKey.id))
        case .sourceRemoved: return .sourceRemoved(id: try scoped(EventKey.id))
        case .sourceDataLoaded:
            return .sourceDataLoaded(SourceDataLoaded(id: try scoped(EventKey.id), type: try enumeration(EventKey.type, SourceDataLoaded.Kind.self),
                                                      loaded: try data.member(EventKey.loaded)?.bool(), tileID: try tile(data.member(EventKey.tileID)),
                                                      dataID: try data.member(EventKey.dataID)?.string()))
        case .renderFrameFinished:
            return .renderFrameFinished(RenderFrameFinished(renderMode: try enumeration(EventKey.renderMode, RenderFrameFinished.Mode.self),
                                                            needsRepaint: try bool(EventKey.needsRepaint), placementChanged: try bool(EventKey.placementChanged)))
        case .resourceRequest:
            guard let requestField = data.member(EventKey.request) else { throw data.failure("missing \"\(EventKey.request)\"") }
            let request = try resource(requestField)
            let response = try data.member(EventKey.response).map { field throws(StyleError) in try Self.response(field) }
            guard let source = DataSource(rawValue: try string(EventKey.dataSource)) else { throw data.failure("unknown data-source") }
            return .resourceRequest(ResourceRequest(dataSource: source, request: request, response: response, cancelled: try bool(EventKey.cancelled)))
        case .liveStateChanged, .liveSubscribed, .liveUnsubscribed, .liveSubscriptionError, .liveUnsubscriptionError, .liveError, .liveUpdate, .liveLocationsUpdated:
            let object = try data.object()
            let event: LiveEvent?
            do {
                event = try LiveEvent(type: type, data: object)
            } catch {
                throw data.failure(error.description)
            }
            guard let event else { throw data.failure("not a live event") }
            return .live(event)
        case .dynamicEntityObservationReceived, .dynamicEntityObservationPurged, .dynamicEntityReceived, .dynamicEntityPurged,
             .dynamicEntityConnectionStatusChanged:
            let object = try data.object()
            let event: DynamicEntityEvent?
            do {
                event = try DynamicEntityEvent(type: type, data: object)
            } catch {
                throw data.failure(error.description)
            }
            guard let event else { throw data.failure("not a dynamic-entity event") }
            return .dynamicEntity(event)
        case .contentStart, .contentReady, .contentCompleteAll:
            let object = try data.object()
            let event: ContentEvent?
            do {
                event = try ContentEvent(type: type, data: object)
            } catch {
                throw data.failure(error.description)
            }
            guard let event else { throw data.failure("not a content event") }
            return .content(event)
        case .offlineRegionStatusChanged, .offlineRegionResponseError, .offlineRegionTileLimitExceeded:
            let object = try data.object()
            let event: OfflineRegionEvent?
            do {
                event = try OfflineRegionEvent(type: type, data: object)
            } catch {
                throw data.failure(error.description)
            }
            guard let event else { throw data.failure("not an offline-region event") }
            return .offlineRegion(event)
        }
    }

    private static func resource(_ field: JSONField) throws(StyleError) -> Resource {
        guard let url = field.member(EventKey.url), let kind = field.member(EventKey.kind) else { throw field.failure("missing \"\(EventKey.url)\" or \"\(EventKey.kind)\"") }
        var resource = Resource(url: try url.string(), kind: try kind.enumeration(Resource.Kind.self))
        if let priority = field.member(EventKey.priority) {
            guard let value = Resource.Priority(rawValue: try priority.string()) else { throw priority.failure("unknown priority") }
            resource.priority = value
        }
        if let methods = field.member(EventKey.loadingMethod) {
            let names = try methods.strings()
            var method: Resource.LoadingMethod = []
            if names.contains("cache") { method.insert(.cache) }
            if names.contains("network") { method.insert(.network) }
            resource.loadingMethod = method
        }
        if let range = field.member(EventKey.range) {
            guard let from = range.member(EventKey.from) else { throw range.failure("missing \"\(EventKey.from)\"") }
            let first = try from.integer(in: 0...Int.max)
            // No last byte: to the end.
            let last = try range.member(EventKey.to).map { field throws(StyleError) in UInt64(try field.integer(in: first...Int.max)) } ?? .max
            resource.dataRange = UInt64(first)...last
        }
        if let scope = field.member(EventKey.styleImport) {
            resource.scope = StyleScope(parsing: try scope.string())
        }
        return resource
    }

    private static func response(_ field: JSONField) throws(StyleError) -> Response {
        guard let sourceField = field.member(EventKey.source), let source = Response.Source(rawValue: try sourceField.string()) else {
            throw field.failure("missing or unknown \"\(EventKey.source)\"")
        }
        var response = Response(source: source)
        response.noContent = try field.member(EventKey.noContent)?.bool() ?? false
        response.notModified = try field.member(EventKey.notModified)?.bool() ?? false
        response.mustRevalidate = try field.member(EventKey.mustRevalidate)?.bool() ?? false
        let size = try field.member(EventKey.size)?.integer(in: 0...Int(Int32.max)) ?? 0
        // A trace keeps the size of the data, not the data.
        if size > 0 { response.recordedSize = size }
        response.modified = try field.member(EventKey.modified).flatMap { field throws(StyleError) in HTTPDate(rfc1123: try field.string()) }
        response.expires = try field.member(EventKey.expires).flatMap { field throws(StyleError) in HTTPDate(rfc1123: try field.string()) }
        response.etag = try field.member(EventKey.etag)?.string()
        if let error = field.member(EventKey.error) {
            guard let reasonField = error.member(EventKey.reason), let reason = Response.Failure.Reason(rawValue: try reasonField.string()) else {
                throw error.failure("missing or unknown \"\(EventKey.reason)\"")
            }
            response.error = Response.Failure(reason: reason, message: try error.member(EventKey.message)?.string() ?? "")
        }
        return response
    }
}
