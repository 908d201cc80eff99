import Foundation
import MapSimJSON

/// The TileJSON of an `mbtiles://` source, made from the `metadata` table as MapLibre Native's
/// MBTiles file source makes it: the members of `json` merged in, `minzoom` and `maxzoom` as numbers
/// (from the tiles' zoom levels when absent), the other rows as strings, the centre from `bounds`
/// (and `bounds` itself only for formats other than `pbf`), `tilejson` 2.0.0, `scheme` xyz, and one
/// tile URL, `URL?file={x}/{y}/{z}.FORMAT`.
enum MBTilesTileJSON {
    static func make(url: String, metadata: [(name: String, value: String)], zooms: (min: Int, max: Int)?, path: String) throws(MBTilesError) -> [UInt8] {
        var object = JSONObject()
        object["tilejson"] = .string("2.0.0")
        object["scheme"] = .string("xyz")
        var bounds: [Double]?
        var format = "pbf"
        for (name, value) in metadata {
            switch name {
            case "json":
                let parsed: JSONValue
                do {
                    parsed = try JSONParser.parse(Array(value.utf8))
                } catch {
                    throw MBTilesError(.invalid, "\(path): the metadata row json is not valid JSON: \(error)", underlying: error)
                }
                guard case .object(let members) = parsed else { throw MBTilesError(.invalid, "\(path): the metadata row json is not a JSON object") }
                for (key, member) in members.members { object[key] = member }
            case "minzoom", "maxzoom":
                guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
                    throw MBTilesError(.invalid, "\(path): the metadata row \(name) is \"\(value)\", not a zoom level")
                }
                object[name] = .number(Double(number))
            case "bounds":
                let numbers = value.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard numbers.count == 4 else { throw MBTilesError(.invalid, "\(path): the metadata row bounds is \"\(value)\", not west,south,east,north") }
                bounds = numbers
            case "center":
                continue
            case "format":
                format = value
                object[name] = .string(value)
            default:
                object[name] = .string(value)
            }
        }
        if object["minzoom"] == nil, let zooms { object["minzoom"] = .number(Double(zooms.min)) }
        if object["maxzoom"] == nil, let zooms { object["maxzoom"] = .number(Double(zooms.max)) }
        if let bounds {
            let minZoom = object["minzoom"]?.numberValue ?? 0
            let maxZoom = object["maxzoom"]?.numberValue ?? 22
            object["center"] = .array([.number((bounds[0] + bounds[2]) / 2), .number((bounds[1] + bounds[3]) / 2), .number(((minZoom + maxZoom) / 2).rounded(.down))])
            if format != "pbf" { object["bounds"] = .array(bounds.map { .number($0) }) }
        }
        object["tiles"] = .array([.string("\(url)?file={x}/{y}/{z}.\(format)")])
        var bytes: [UInt8] = []
        JSONWriter.write(.object(object), into: &bytes)
        return bytes
    }
}
