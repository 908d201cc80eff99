import MapSimJSON

extension MapEvent {
    /// The event as one JSON line: `{"type": ..., "begin": µs, "end": µs, "data": {...}}`, keys in
    /// this fixed order and the payload with the Mapbox keys, so the same run writes the same bytes.
    public var jsonLine: String {
        JSONWriter.string(.object(jsonObject))
    }

    /// Appends the JSON line (without its newline) to `bytes`, as UTF-8 — the same bytes as
    /// `jsonLine`, written field by field with no intermediate values, for long recordings.
    public func appendJSONLine(to bytes: inout [UInt8]) {
        var line = JSONLineEncoder(bytes: bytes)
        bytes = []
        line.open()
        line.member("type", type.rawValue)
        line.member("begin", begin.microseconds)
        line.member("end", end.microseconds)
        line.key("data")
        line.payload(payload)
        line.close()
        bytes = line.bytes
    }

    /// The event as the JSON object of its JSON line.
    public var jsonObject: JSONObject {
        JSONObject([
            ("type", .string(type.rawValue)),
            ("begin", .number(Double(begin.microseconds))),
            ("end", .number(Double(end.microseconds))),
            ("data", .object(payload.data)),
        ])
    }
}

extension MapEventPayload {
    /// The payload as the Mapbox event data object (kebab-case keys).
    public var data: JSONObject {
        switch self {
        case .mapLoaded, .mapIdle, .styleLoaded, .renderFrameStarted, .cameraChanged:
            return JSONObject()
        case .mapLoadingError(let error):
            var object = JSONObject([("type", .string(error.type.rawValue)), ("message", .string(error.message))])
            if let sourceID = error.sourceID { object["source-id"] = .string(sourceID) }
            if let tileID = error.tileID { object["tile-id"] = tileID.json }
            return object
        case .styleDataLoaded(let loaded):
            return JSONObject([("type", .string(loaded.type.rawValue))])
        case .styleImageMissing(let id), .styleImageRemoveUnused(let id), .sourceAdded(let id), .sourceRemoved(let id):
            return JSONObject([("id", .string(id))])
        case .sourceDataLoaded(let loaded):
            var object = JSONObject([("id", .string(loaded.id)), ("type", .string(loaded.type.rawValue))])
            if let flag = loaded.loaded { object["loaded"] = .bool(flag) }
            if let tileID = loaded.tileID { object["tile-id"] = tileID.json }
            if let dataID = loaded.dataID { object["data-id"] = .string(dataID) }
            return object
        case .renderFrameFinished(let frame):
            return JSONObject([
                ("render-mode", .string(frame.renderMode.rawValue)),
                ("needs-repaint", .bool(frame.needsRepaint)),
                ("placement-changed", .bool(frame.placementChanged)),
            ])
        case .resourceRequest(let request):
            var object = JSONObject([("data-source", .string(request.dataSource.rawValue)), ("request", .object(request.request.eventData))])
            if let response = request.response { object["response"] = .object(response.eventData) }
            object["cancelled"] = .bool(request.cancelled)
            return object
        case .live(let event):
            return event.data
        case .dynamicEntity(let event):
            return event.data
        case .content(let event):
            return event.data
        }
    }
}

extension CanonicalTileID {
    /// `{"z": z, "x": x, "y": y}`.
    var json: JSONValue {
        .object(JSONObject([("z", .number(Double(z))), ("x", .number(Double(x))), ("y", .number(Double(y)))]))
    }
}

extension Resource {
    /// The `request` object of a resource-request event.
    var eventData: JSONObject {
        JSONObject([
            ("url", .string(url)),
            ("kind", .string(kind.rawValue)),
            ("priority", .string(priority.rawValue)),
            ("loading-method", .array(loadingMethod.names.map(JSONValue.string))),
        ])
    }
}

extension Response {
    /// The `response` object of a resource-request event.
    var eventData: JSONObject {
        var object = JSONObject([
            ("no-content", .bool(noContent)),
            ("not-modified", .bool(notModified)),
            ("must-revalidate", .bool(mustRevalidate)),
            ("source", .string(source.rawValue)),
            ("size", .number(Double(size))),
        ])
        if let modified { object["modified"] = .string(modified.description) }
        if let expires { object["expires"] = .string(expires.description) }
        if let etag { object["etag"] = .string(etag) }
        if let error {
            object["error"] = .object(JSONObject([("reason", .string(error.reason.rawValue)), ("message", .string(error.message))]))
        }
        return object
    }
}
