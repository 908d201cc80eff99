import MapSimJSON

/// How the map control draws live state without any change to the style, as MapsIndoors' default
/// display rule does: for each domain with live data enabled, a symbol layer `mapsim-live-DOMAIN` on
/// the bound source, on top of the style, showing every location of the floor shown that has a live
/// state in the domain with the icon of that state:
///
/// - `live-DOMAIN-STATE` when its last update has a `state` property (`live-occupancy-busy`);
/// - `live-DOMAIN` otherwise (a position, a count, a temperature: the domain's own icon).
///
/// The icons come from the style's sprite; one the sprite lacks is `style-image-missing`, as for any
/// layer. A location "has a live state" when `live.DOMAIN.timestamp` is set (`LiveBinding` sets it
/// with every update).
public enum LiveDisplayRule {
    /// The id of the layer that shows `domain`.
    public static func layerID(domain: String) -> String {
        "mapsim-live-\(domain)"
    }

    /// The layer that shows `domain` on `source` for the locations of `floor`, read through `fields`.
    public static func layer(domain: String, source: String, floor: String, fields: LiveLocationFields) -> JSONValue {
        let state = LiveBinding.propertyName(domain: domain, property: "state")
        let filter: JSONValue = .array([
            .string("all"),
            .array([.string("has"), .string(LiveBinding.timestampProperty(domain: domain))]),
            .array([.string("=="), .array([.string("to-string"), .array([.string("get"), .string(fields.floor)])]), .string(floor)]),
        ])
        let icon: JSONValue = .array([
            .string("case"),
            .array([.string("has"), .string(state)]),
            .array([.string("concat"), .string("live-\(domain)-"), .array([.string("get"), .string(state)])]),
            .string("live-\(domain)"),
        ])
        return .object(JSONObject([
            ("id", .string(layerID(domain: domain))), ("type", .string("symbol")), ("source", .string(source)), ("filter", filter),
            ("layout", .object(JSONObject([("icon-image", icon), ("icon-allow-overlap", .bool(true))]))),
        ]))
    }
}
