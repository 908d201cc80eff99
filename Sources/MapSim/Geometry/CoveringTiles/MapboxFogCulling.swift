import Foundation
import MapSimJSON
import MapSimStyle

/// Mapbox GL JS 3.0.1's fog culling (`Painter._updateFog`, then `coveringTiles`): in a view steep
/// enough for the fog to be opaque at the horizon, the tiles the fog hides are not asked for.
///
/// It is on when the style has `fog` whose `color` is opaque (alpha 1), whose `horizon-blend` is at
/// least 0.03, and the pitch is at least 65° (the fog's opacity, smoothstep(45°, 65°, pitch) × alpha,
/// reaches 1); on the globe it is off (from zoom 6 the map is Mercator, and it is on again). The
/// distance is 78% of the way through the fog's `range` — in viewport heights, each end moved out
/// by the camera's distance to the centre (1.5 heights) — and a tile the cover took stays when the
/// nearest point of its square, on the ground, is nearer than that to the point below the camera.
/// The fog's properties are read at the view's zoom; 3.0.1 reads their `["config", …]` as null.
struct MapboxFogCulling: Sendable {
    /// Mapbox's defaults and the properties' types, as its style specification has them.
    private static let specs: (range: JSONObject, color: JSONObject, horizonBlend: JSONObject) = {
        func spec(_ text: String) -> JSONObject { (try? JSONParser.parse(Array(text.utf8)))?.objectValue ?? JSONObject() }
        let expression = #""expression": {"interpolated": true, "parameters": ["zoom", "measure-light"]}, "property-type": "data-constant""#
        return (spec(#"{"type": "array", "value": "number", "length": 2, "default": [0.5, 10], \#(expression)}"#),
                spec(##"{"type": "color", "default": "#ffffff", \##(expression)}"##),
                spec(#"{"type": "number", "default": ["interpolate", ["linear"], ["zoom"], 4, 0.2, 7, 0.1], \#(expression)}"#))
    }()

    /// The distance in viewport heights beyond which a tile is dropped.
    let distance: Double

    /// The culling of `fog` at `zoom` and `pitch` (degrees); nil when Mapbox GL JS culls nothing (a
    /// value that cannot be read culls nothing either).
    init?(fog: JSONObject, zoom: Double, pitch: Double) {
        // The fog's opacity is smoothstep(45°, 65°, pitch) × alpha, at most 1: short of 65° nothing
        // is culled, and nothing needs reading (this runs for every source's cover).
        guard Self.smoothstep(45, 65, pitch) >= 1 else { return nil }
        let context = ExpressionContext(zoom: zoom)
        func value(_ name: String, _ spec: JSONObject) -> ExpressionValue? {
            let json = fog[name] ?? spec["default"] ?? .null
            guard case .success(let expression) = StyleExpression.compile(json, propertySpec: spec, flavor: .mapbox) else { return nil }
            return try? expression.evaluate(context)
        }
        guard case .color(let color)? = value("color", Self.specs.color),
              Self.smoothstep(45, 65, pitch) * color.alpha >= 1,
              case .number(let horizonBlend)? = value("horizon-blend", Self.specs.horizonBlend), horizonBlend >= 0.03,
              let range = value("range", Self.specs.range).flatMap(Self.numbers), range.count == 2
        else { return nil }
        // The camera's distance to the centre in viewport heights, with GL JS's field of view.
        let cameraDistance = 0.5 / tan(0.6435011087932844 / 2)
        let (start, end) = (range[0] + cameraDistance, range[1] + cameraDistance)
        let distance = start + 0.78 * (end - start)
        guard start <= end, distance != 0 else { return nil }
        self.distance = abs(distance)
    }

    /// What 3D terrain adds: a tile past the fog stays when the corner of its square farthest along
    /// the view (by the bearing's quadrant), raised to its highest height, is seen above the line
    /// Mapbox draws the horizon at, 10% of the true horizon's height above the centre below it.
    struct RisingTiles {
        /// The view-projection matrix of the cover's transform (world pixels, z in metres).
        let viewProjection: Matrix4
        /// The camera the cover saw.
        let camera: CoverCamera
        /// The average elevation of the ground in view, exaggerated metres (`_averageElevation`).
        let averageElevation: Double
        /// The highest height, exaggerated metres, the cover gave a tile's volume.
        let top: (OverscaledTileID) -> Double
        /// The horizon line's distance in pixels from the top of the view (`horizonFromTop`).
        let horizon: Double
        /// The corner of a tile's square farthest along the view, by the bearing's quadrant.
        private let corner: (x: Double, y: Double)

        /// The rule for the cover of `camera`, whose transform has `viewProjection`.
        init(viewProjection: Matrix4, camera: CoverCamera, averageElevation: Double, top: @escaping (OverscaledTileID) -> Double) {
            self.viewProjection = viewProjection
            self.camera = camera
            self.averageElevation = averageElevation
            self.top = top
            horizon = MapboxFogCulling.horizonFromTop(camera)
            let quadrant = floor((camera.bearing + 45 + 360).truncatingRemainder(dividingBy: 360) / 90 + 0.5)
            corner = [(0, 0), (1, 0), (1, 1), (0, 1)][Int(quadrant) % 4]
        }

        /// Whether `tile`'s corner rises above the horizon line.
        func rises(_ tile: OverscaledTileID) -> Bool {
            let tiles = pow(2, Double(tile.canonical.z))
            let x = (Double(tile.canonical.x) + corner.x + Double(tile.wrap) * tiles) / tiles * camera.worldSize
            let y = (Double(tile.canonical.y) + corner.y) / tiles * camera.worldSize
            let clip = viewProjection.transform(x, y, top(tile), 1)
            return (1 - clip.y / clip.w) * camera.height * 0.5 < horizon
        }
    }

    /// Whether `tile` stays in the view of `camera`: its square is within `distance` of the point
    /// below the camera, or — with 3D terrain, past the fog — it rises above the horizon (`rising`).
    /// With terrain the camera stands raised on the centre's height, which shrinks the world the
    /// distance is measured in (Mapbox's `cameraWorldSizeForFog`, with the average elevation it
    /// samples later along five rays taken as 0, as its first covers take it).
    func keeps(_ tile: OverscaledTileID, camera: CoverCamera, rising: RisingTiles? = nil) -> Bool {
        let tiles = pow(2, Double(tile.canonical.z))
        let x0 = (Double(tile.canonical.x) + Double(tile.wrap) * tiles) / tiles, y0 = Double(tile.canonical.y) / tiles
        let (x1, y1) = (x0 + 1 / tiles, y0 + 1 / tiles)
        let center = camera.centerPoint
        let behind = camera.cameraToCenterDistance / camera.worldSize * sin(camera.pitchRadians)
        let cx = center.x - behind * sin(camera.bearingRadians), cy = center.y + behind * cos(camera.bearingRadians)
        var worldSize = camera.worldSize
        if let rising {
            let slant = camera.cameraToCenterDistance * cos(camera.pitchRadians)
            // The circumference at the camera's Mercator y read as degrees, as 3.0.1 has it.
            let circumference = 2 * Double.pi * 6_371_008.8 * cos(cy * Double.pi / 180)
            worldSize = slant / (slant / camera.worldSize + center.z - rising.averageElevation / circumference)
        }
        let scale = worldSize / camera.height
        let dx = max(x0 - cx, 0, cx - x1) * scale, dy = max(y0 - cy, 0, cy - y1) * scale
        let squared = dx * dx + dy * dy
        if squared == 0 || squared < distance * distance { return true }
        guard let rising, squared > distance * distance else { return false }
        return rising.horizon != 0 && rising.rises(tile)
    }

    /// The distance in pixels from the top of `camera`'s view of the line Mapbox draws the horizon
    /// at (`horizonLineFromTop`), 10% of the true horizon's height above the centre below it; 0 up to
    /// a pitch of about 69.68°, where it does not cut the view.
    static func horizonFromTop(_ camera: CoverCamera) -> Double {
        max(0, camera.height / 2 - camera.cameraToCenterDistance / tan(max(camera.pitchRadians, 0.1)) * (1 - 0.1))
    }

    /// The numbers of an array value.
    private static func numbers(_ value: ExpressionValue) -> [Double]? {
        switch value {
        case .numberArray(let numbers): return numbers
        case .array(let items):
            let numbers = items.compactMap { if case .number(let n) = $0 { n } else { nil } }
            return numbers.count == items.count ? numbers : nil
        default: return nil
        }
    }

    private static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }
}
