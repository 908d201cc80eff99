import MapSimStyle

/// The one description of every payload's fields — their keys, their order, their form — which the
/// JSON object of an event and its JSON line are both written from.
extension MapEventPayload {
    /// Writes the payload's Mapbox data fields, in order.
    func writeFields<Writer: EventFieldWriter>(to writer: inout Writer) {
        switch self {
        case .mapLoaded, .mapIdle, .styleLoaded, .renderFrameStarted, .cameraChanged:
            break
        case .mapLoadingError(let error):
            writer.field(EventKey.type, error.type.rawValue)
            writer.field(EventKey.message, error.message)
            if let sourceID = error.sourceID { writer.scopedName(EventKey.sourceID, sourceID) }
            if let tileID = error.tileID { writer.tile(EventKey.tileID, tileID) }
        case .styleDataLoaded(let loaded):
            writer.field(EventKey.type, loaded.type.rawValue)
        case .styleFeatureIgnored(let ignored):
            writer.field(EventKey.feature, ignored.feature.rawValue)
            writer.field(EventKey.engine, ignored.engine)
            writer.field(EventKey.message, ignored.message)
        case .styleWarning(let warning):
            writer.field(EventKey.message, warning.message)
            if !warning.scope.isRoot { writer.field(EventKey.styleImport, warning.scope.description) }
        case .styleImageMissing(let id), .styleImageRemoveUnused(let id), .sourceAdded(let id), .sourceRemoved(let id):
            writer.scopedName(EventKey.id, id)
        case .sourceDataLoaded(let loaded):
            writer.scopedName(EventKey.id, loaded.id)
            writer.field(EventKey.type, loaded.type.rawValue)
            if let flag = loaded.loaded { writer.field(EventKey.loaded, flag) }
            if let tileID = loaded.tileID { writer.tile(EventKey.tileID, tileID) }
            if let dataID = loaded.dataID { writer.field(EventKey.dataID, dataID) }
        case .renderFrameFinished(let frame):
            writer.field(EventKey.renderMode, frame.renderMode.rawValue)
            writer.field(EventKey.needsRepaint, frame.needsRepaint)
            writer.field(EventKey.placementChanged, frame.placementChanged)
        case .resourceRequest(let request):
            writer.field(EventKey.dataSource, request.dataSource.rawValue)
            writer.object(EventKey.request) { request.request.writeFields(to: &$0) }
            if let response = request.response {
                writer.object(EventKey.response) { response.writeFields(to: &$0) }
            }
            writer.field(EventKey.cancelled, request.cancelled)
        case .live(let event):
            for (name, value) in event.data.members { writer.field(name, value) }
        case .dynamicEntity(let event):
            for (name, value) in event.data.members { writer.field(name, value) }
        case .content(let event):
            for (name, value) in event.data.members { writer.field(name, value) }
        case .offlineRegion(let event):
            for (name, value) in event.data.members { writer.field(name, value) }
        }
    }
}

extension Resource {
    /// The `request` object of a resource-request event.
    func writeFields<Writer: EventFieldWriter>(to writer: inout Writer) {
        writer.field(EventKey.url, url)
        writer.field(EventKey.kind, kind.rawValue)
        writer.field(EventKey.priority, priority.rawValue)
        writer.field(EventKey.loadingMethod, loadingMethod.names)
        if let range = dataRange {
            writer.object(EventKey.range) { bytes in
                bytes.field(EventKey.from, Int64(clamping: range.lowerBound))
                // A range to the end (a video's `bytes=0-`) has no last byte.
                if range.upperBound != .max { bytes.field(EventKey.to, Int64(clamping: range.upperBound)) }
            }
        }
        if !scope.isRoot { writer.field(EventKey.styleImport, scope.description) }
    }
}

extension EventFieldWriter {
    /// Writes a name an import may have scoped (`city␟a2␟a`) as the name (`city`) under `key`,
    /// followed by its import (`import: a/a2`) when it has one.
    mutating func scopedName(_ key: String, _ qualified: String) {
        let (name, scope) = StyleScope.split(qualified)
        field(key, name)
        if !scope.isRoot { field(EventKey.styleImport, scope.description) }
    }
}

extension Response {
    /// The `response` object of a resource-request event.
    func writeFields<Writer: EventFieldWriter>(to writer: inout Writer) {
        writer.field(EventKey.noContent, noContent)
        writer.field(EventKey.notModified, notModified)
        writer.field(EventKey.mustRevalidate, mustRevalidate)
        writer.field(EventKey.source, source.rawValue)
        writer.field(EventKey.size, Int64(size))
        if let modified { writer.field(EventKey.modified, modified.description) }
        if let expires { writer.field(EventKey.expires, expires.description) }
        if let etag { writer.field(EventKey.etag, etag) }
        if let error {
            writer.object(EventKey.error) { failure in
                failure.field(EventKey.reason, error.reason.rawValue)
                failure.field(EventKey.message, error.message)
            }
        }
    }
}
