import MapSimJSON

/// Writes an event's JSON line straight into bytes, member by member, in the order and form of
/// `MapEvent.jsonObject` (a test holds the two to the same bytes).
struct JSONLineEncoder {
    var bytes: [UInt8]
    /// One bit per open object: set once it has a member (so the next one needs a comma).
    private var hasMembers: UInt64 = 0
    private var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func open() {
        bytes.append(0x7B)
        depth += 1
        hasMembers &= ~(1 << UInt64(depth))
    }

    mutating func close() {
        bytes.append(0x7D)
        depth -= 1
    }

    mutating func key(_ name: String) {
        let bit: UInt64 = 1 << UInt64(depth)
        if hasMembers & bit != 0 { bytes.append(0x2C) } else { hasMembers |= bit }
        JSONWriter.writeString(name, into: &bytes)
        bytes.append(0x3A)
    }

    mutating func member(_ name: String, _ value: String) {
        key(name)
        JSONWriter.writeString(value, into: &bytes)
    }

    mutating func member(_ name: String, _ value: Int64) {
        key(name)
        JSONWriter.writeNumber(Double(value), into: &bytes)
    }

    mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    mutating func tile(_ name: String, _ id: CanonicalTileID) {
        key(name)
        open()
        member("z", Int64(id.z))
        member("x", Int64(id.x))
        member("y", Int64(id.y))
        close()
    }

    mutating func payload(_ payload: MapEventPayload) {
        open()
        switch payload {
        case .mapLoaded, .mapIdle, .styleLoaded, .renderFrameStarted, .cameraChanged:
            break
        case .mapLoadingError(let error):
            member("type", error.type.rawValue)
            member("message", error.message)
            if let sourceID = error.sourceID { member("source-id", sourceID) }
            if let tileID = error.tileID { tile("tile-id", tileID) }
        case .styleDataLoaded(let loaded):
            member("type", loaded.type.rawValue)
        case .styleImageMissing(let id), .styleImageRemoveUnused(let id), .sourceAdded(let id), .sourceRemoved(let id):
            member("id", id)
        case .sourceDataLoaded(let loaded):
            member("id", loaded.id)
            member("type", loaded.type.rawValue)
            if let flag = loaded.loaded { member("loaded", flag) }
            if let tileID = loaded.tileID { tile("tile-id", tileID) }
            if let dataID = loaded.dataID { member("data-id", dataID) }
        case .renderFrameFinished(let frame):
            member("render-mode", frame.renderMode.rawValue)
            member("needs-repaint", frame.needsRepaint)
            member("placement-changed", frame.placementChanged)
        case .resourceRequest(let request):
            member("data-source", request.dataSource.rawValue)
            key("request")
            resource(request.request)
            if let response = request.response {
                key("response")
                self.response(response)
            }
            member("cancelled", request.cancelled)
        case .live, .dynamicEntity, .content:
            for (name, value) in payload.data.members {
                key(name)
                JSONWriter.write(value, into: &bytes)
            }
        }
        close()
    }

    private mutating func resource(_ resource: Resource) {
        open()
        member("url", resource.url)
        member("kind", resource.kind.rawValue)
        member("priority", resource.priority.rawValue)
        key("loading-method")
        // As `LoadingMethod.names`, without making the array.
        let cache = resource.loadingMethod.contains(.cache)
        bytes.append(0x5B)
        if cache { bytes.append(contentsOf: #""cache""#.utf8) }
        if resource.loadingMethod.contains(.network) { bytes.append(contentsOf: (cache ? #","network""# : #""network""#).utf8) }
        bytes.append(0x5D)
        close()
    }

    private mutating func response(_ response: Response) {
        open()
        member("no-content", response.noContent)
        member("not-modified", response.notModified)
        member("must-revalidate", response.mustRevalidate)
        member("source", response.source.rawValue)
        member("size", Int64(response.size))
        if let modified = response.modified { member("modified", modified.description) }
        if let expires = response.expires { member("expires", expires.description) }
        if let etag = response.etag { member("etag", etag) }
        if let error = response.error {
            key("error")
            open()
            member("reason", error.reason.rawValue)
            member("message", error.message)
            close()
        }
        close()
    }
}
