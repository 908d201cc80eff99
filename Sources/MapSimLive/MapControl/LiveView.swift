import MapSim
import MapSimStyle

/// What the map shows: the ground the view covers (bearing and pitch applied, as MapLibre Native's
/// camera sees it) and the floor shown.
public struct LiveView: Sendable, Equatable {
    /// The camera, as the map applies it.
    public let camera: Camera
    /// The view size.
    public let viewport: Viewport
    /// The view's corners on the ground, in world fractions.
    public let quad: ViewportQuad
    /// The floor shown.
    public let floor: String

    /// The view of `camera` (as the map applies it) through `viewport`, showing `floor`.
    public init(camera: Camera, viewport: Viewport, floor: String) {
        self.camera = camera
        self.viewport = viewport
        quad = ViewportQuad(camera: camera, viewport: viewport)
        self.floor = floor
    }

    /// What `map` shows now: the locations of its GeoJSON source `source` (read through `fields`),
    /// and the view, on `floor` — the lowest floor of the locations when nil.
    public static func current(on map: MapReadout, source: String, fields: LiveLocationFields, floor: String?) -> (locations: [LiveLocation], view: LiveView) {
        let locations = LiveLocation.locations(in: map.geoJSONFeatures(source: source) ?? [], fields: fields)
        let shown = floor ?? defaultFloor(of: locations) ?? ""
        return (locations, LiveView(camera: map.effectiveCamera, viewport: map.viewport, floor: shown))
    }

    /// Whether `point` is inside the view (on its edge counts), in any copy of the world.
    public func contains(_ point: LngLat) -> Bool {
        let x = WebMercator.x(longitude: point.longitude)
        let y = WebMercator.y(latitude: point.latitude)
        return [x, x - 1, x + 1].contains { inside(x: $0, y: y) }
    }

    private func inside(x: Double, y: Double) -> Bool {
        // A convex quad: the point is on the same side of every edge.
        var sign = 0.0
        let corners = quad.corners
        for index in corners.indices {
            let a = corners[index]
            let b = corners[(index + 1) % corners.count]
            let cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return true
    }

    /// The floor MapsIndoors shows before one is chosen: the lowest floor of `locations` (floors that
    /// are numbers compare as numbers, before any that are not), nil when there are none.
    public static func defaultFloor(of locations: [LiveLocation]) -> String? {
        locations.map(\.floor).min { a, b in
            switch (Double(a), Double(b)) {
            case (let x?, let y?): x < y || (x == y && a < b)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a < b
            }
        }
    }
}
