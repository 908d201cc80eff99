import MapSimJSON

/// The TileJSON of a `pmtiles://` source, made as MapLibre Native's PMTiles file source makes it:
/// the archive's JSON metadata, with `tilejson` 3.0.0, `scheme` xyz, `tiles` the archive's URL
/// (unless the metadata has a `tiles` array), `encoding` mlt for MapLibre tiles, and the bounds,
/// centre and zooms of the header where the metadata does not give them.
public enum PMTilesTileJSON {
    /// The TileJSON text for the archive at `url` (the `pmtiles://` URL) with `header` and the
    /// (inflated) `metadata`, if it has any.
    public static func make(url: String, header: PMTilesHeader, metadata: [UInt8]?) throws(PMTilesError) -> [UInt8] {
        var object = JSONObject()
        if let metadata, !metadata.isEmpty {
            let value: JSONValue
            do {
                value = try JSONParser.parse(metadata)
            } catch {
                throw PMTilesError("the archive's metadata is not valid JSON: \(error)")
            }
            guard case .object(let parsed) = value else { throw PMTilesError("the archive's metadata is not a JSON object") }
            object = parsed
        }
        object["tilejson"] = .string("3.0.0")
        object["scheme"] = .string("xyz")
        if object["tiles"]?.arrayValue == nil { object["tiles"] = .array([.string(url)]) }
        if header.tileType == .mlt { object["encoding"] = .string("mlt") }
        func degrees(_ e7: Int32) -> JSONValue { .number(Double(e7) / 10_000_000) }
        if object["bounds"] == nil {
            object["bounds"] = .array([degrees(header.minLonE7), degrees(header.minLatE7), degrees(header.maxLonE7), degrees(header.maxLatE7)])
        }
        if object["center"] == nil {
            object["center"] = .array([degrees(header.centerLonE7), degrees(header.centerLatE7), .number(Double(header.centerZoom))])
        }
        if object["minzoom"] == nil { object["minzoom"] = .number(Double(header.minZoom)) }
        if object["maxzoom"] == nil { object["maxzoom"] = .number(Double(header.maxZoom)) }
        var bytes: [UInt8] = []
        JSONWriter.write(.object(object), into: &bytes)
        return bytes
    }
}
