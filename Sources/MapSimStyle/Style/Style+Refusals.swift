import MapSimJSON

extension Style {
    /// Every value the loader refuses, by `flavor`'s style spec, each with its JSON path — what
    /// `parse` stops at first, looked for in every source and layer: a source or layer that is
    /// refused is left out and the rest parsed again, so one bad value hides no other. A document
    /// that is not JSON, or whose root is refused, gives that one error.
    public static func refusals(_ bytes: [UInt8], flavor: StyleSpecFlavor = .maplibre) -> [StyleError] {
        let document: JSONValue
        do {
            document = try JSONField.document(bytes, what: "the style").value
        } catch {
            return [error]
        }
        guard var root = document.objectValue else { return refusal(of: document, flavor: flavor).map { [$0] } ?? [] }
        var refused: [StyleError] = []
        // The layers still in the document, by their index as written.
        var layerIndices = Array((root["layers"]?.arrayValue ?? []).indices)
        for _ in 0...(root["sources"]?.objectValue?.members.count ?? 0) + layerIndices.count {
            guard let error = refusal(of: .object(root), flavor: flavor) else { break }
            if let id = Self.sourceID(in: error.path), var sources = root["sources"]?.objectValue, var source = sources[id]?.objectValue {
                refused.append(error)
                // A refused value is taken out of its source (the source stays, for its layers); a
                // source refused as a whole is replaced by a valid one of no data.
                let member = error.path.dropFirst("sources.\(id)".count)
                if member.hasPrefix("."), source[String(member.dropFirst().prefix { $0 != "." && $0 != "[" })] != nil {
                    source[String(member.dropFirst().prefix { $0 != "." && $0 != "[" })] = nil
                } else {
                    source = JSONObject([("type", .string("geojson")), ("data", .object(JSONObject([("type", .string("FeatureCollection")), ("features", .array([]))])))])
                }
                sources[id] = .object(source)
                root["sources"] = .object(sources)
            } else if let index = Self.layerIndex(in: error.path), var layers = root["layers"]?.arrayValue, layers.indices.contains(index) {
                let written = layerIndices[index]
                refused.append(StyleError(error.code, path: "layers[\(written)]" + error.path.dropFirst("layers[\(index)]".count), message: error.message))
                layers.remove(at: index)
                layerIndices.remove(at: index)
                root["layers"] = .array(layers)
            } else {
                refused.append(error)
                break
            }
        }
        return refused
    }

    private static func refusal(of document: JSONValue, flavor: StyleSpecFlavor) -> StyleError? {
        do {
            _ = try parse(document, flavor: flavor)
            return nil
        } catch {
            return error
        }
    }

    /// The source a path like `sources.city.maxzoom` is in.
    private static func sourceID(in path: String) -> String? {
        guard path.hasPrefix("sources.") else { return nil }
        return String(path.dropFirst("sources.".count).prefix { $0 != "." })
    }

    /// The layer a path like `layers[3].source` is in.
    private static func layerIndex(in path: String) -> Int? {
        guard path.hasPrefix("layers[") else { return nil }
        return Int(path.dropFirst("layers[".count).prefix { $0 != "]" })
    }
}
