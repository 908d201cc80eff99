import Foundation
import MapSimJSON

/// Runs expression cases in the format of the style spec's expression test suite: compiles the
/// case's `expression` for its `propertySpec` (completed as the suite's harness completes it),
/// evaluates it on each of its `inputs`, and answers in the shape of the suite's `expected`:
/// `{"compiled": {...}, "outputs": [...]}`, numbers cut to 6 significant digits as the suite
/// writes them.
public enum ExpressionCaseRunner {
    /// The result of one case (a JSON object; `expected`, if present, is ignored).
    public static func run(_ testCase: JSONValue) -> JSONValue {
        let spec = completedSpec(testCase["propertySpec"]?.objectValue)
        switch StyleExpression.compile(testCase["expression"] ?? .null, propertySpec: spec) {
        case .failure(let failure):
            let errors = failure.errors.map { JSONValue.object(JSONObject([("key", .string($0.key)), ("error", .string($0.message))])) }
            return .object(JSONObject([("compiled", .object(JSONObject([("result", .string("error")), ("errors", .array(errors))])))]))
        case .success(let expression):
            let compiled = JSONObject([
                ("result", .string("success")), ("isFeatureConstant", .bool(expression.isFeatureConstant)),
                ("isZoomConstant", .bool(expression.isZoomConstant)), ("type", .string(expression.type)),
            ])
            let globalState = testCase["globalState"]?.objectValue ?? JSONObject()
            let inputs: [JSONValue] = testCase["inputs"]?.arrayValue ?? []
            let outputs = inputs.map { (input: JSONValue) -> JSONValue in
                let inputContext = context(input, globalState: globalState)
                do throws(ExpressionError) {
                    return stripPrecision(expression.outputJSON(try expression.evaluate(inputContext)))
                } catch {
                    return .object(JSONObject([("error", .string(error.message))]))
                }
            }
            return .object(JSONObject([("compiled", .object(compiled)), ("outputs", .array(outputs))]))
        }
    }

    /// A property spec completed with the suite harness's defaults: data-driven, interpolated, of
    /// zoom and feature, unless it says otherwise.
    public static func completedSpec(_ given: JSONObject?) -> JSONObject {
        var spec = given ?? JSONObject()
        if !(spec["property-type"].map(ExpressionParser.isTruthy) ?? false) { spec["property-type"] = .string("data-driven") }
        if !(spec["expression"].map(ExpressionParser.isTruthy) ?? false) {
            spec["expression"] = .object(JSONObject([("interpolated", .bool(true)), ("parameters", .array([.string("zoom"), .string("feature")]))]))
        }
        return spec
    }

    /// The evaluation context of one `[globals, feature]` input.
    private static func context(_ input: JSONValue, globalState: JSONObject) -> ExpressionContext {
        let pair = input.arrayValue ?? []
        let globals = pair.first ?? .null
        let featureJSON = pair.count > 1 ? pair[1] : .null
        var context = ExpressionContext(globalState: globalState)
        context.zoom = globals["zoom"]?.numberValue
        context.heatmapDensity = globals["heatmapDensity"]?.numberValue
        context.elevation = globals["elevation"]?.numberValue
        context.lineProgress = globals["lineProgress"]?.numberValue
        context.accumulated = globals["accumulated"].map(ExpressionValue.init)
        if let images = globals["availableImages"]?.arrayValue { context.availableImages = Set(images.compactMap { $0.stringValue }) }
        if let id = globals["canonicalID"], let z = id["z"]?.numberValue, let x = id["x"]?.numberValue, let y = id["y"]?.numberValue,
           [z, x, y].allSatisfy({ $0.isFinite && abs($0) < 1e9 }) {
            context.tile = CanonicalTile(z: Int(z), x: Int(x), y: Int(y))
        }
        var feature = ExpressionFeature(properties: featureJSON["properties"]?.objectValue ?? JSONObject(), id: featureJSON["id"])
        if let geometry = featureJSON["geometry"], geometry["coordinates"] != nil {
            if let tile = context.tile {
                (feature.geometryType, feature.geometry) = tileGeometry(geometry, tile: tile)
            } else {
                feature.geometryType = geometry["type"]?.stringValue
            }
        }
        context.feature = feature
        context.featureState = featureJSON["featureState"]?.objectValue ?? JSONObject()
        return context
    }

    /// A GeoJSON geometry in the coordinates of `tile`, with the geometry type the SDKs give it.
    private static func tileGeometry(_ geometry: JSONValue, tile: CanonicalTile) -> (String?, [[TilePoint]]) {
        func point(_ position: JSONValue) -> TilePoint {
            let world = GeoJSONShape.worldTilePoint((position.arrayValue ?? []).compactMap(\.numberValue), zoom: tile.z)
            return TilePoint(x: world.x - Double(tile.x) * GeoJSONShape.extent, y: world.y - Double(tile.y) * GeoJSONShape.extent)
        }
        func line(_ positions: JSONValue) -> [TilePoint] { (positions.arrayValue ?? []).map(point) }
        let coordinates = geometry["coordinates"] ?? .null
        let type = geometry["type"]?.stringValue
        switch type {
        case "Point": return ("Point", [[point(coordinates)]])
        case "MultiPoint": return ("Point", (coordinates.arrayValue ?? []).map { [point($0)] })
        case "LineString": return ("LineString", [line(coordinates)])
        case "MultiLineString": return ("LineString", (coordinates.arrayValue ?? []).map(line))
        case "Polygon": return ("Polygon", (coordinates.arrayValue ?? []).map(line))
        case "MultiPolygon": return ("Polygon", (coordinates.arrayValue ?? []).flatMap { ($0.arrayValue ?? []).map(line) })
        default: return (type, [])
        }
    }

    /// Numbers cut (not rounded) to 6 significant digits, as the suite writes its expectations;
    /// NaN and infinities as null, as JSON has them.
    static func stripPrecision(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let n):
            guard n.isFinite else { return .null }
            if n == 0 { return .number(n) }
            let exponent = max(0, 6 - (log10(abs(n))).rounded(.up))
            let multiplier = ReferencePowersOfTen.power(Int(exponent)) ?? pow(10, exponent)
            let once = (n * multiplier).rounded(.down) / multiplier
            return .number((once * multiplier).rounded(.down) / multiplier)
        case .array(let items):
            return .array(items.map(stripPrecision))
        case .object(let object):
            return .object(JSONObject(object.members.map { ($0.key, stripPrecision($0.value)) }))
        default:
            return value
        }
    }
}
