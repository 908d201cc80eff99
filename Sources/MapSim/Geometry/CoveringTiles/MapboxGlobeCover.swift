import Foundation

/// Mapbox GL JS 3.0.1's tile cover on the globe (its `coveringTiles` under the `globe` projection,
/// below zoom 6; from 6 the map is Mercator and so is its cover). It differs from MapLibre's globe
/// at every step, so it is a walk of its own:
///
/// - **Space.** Tiles and the camera live in the pixel space of the globe matrix — the Earth a sphere
///   of `worldSize / 2π` pixels below the view's centre, which touches it — scaled to tile units of
///   the covering zoom. The frustum's corners are scaled likewise in x, y *and* z.
/// - **A tile's box** is the box of its four corners on the sphere, the arc of the edge nearest the
///   centre (at its bulge) and, for the tile under the centre, the centre itself; the top and bottom
///   rows are tested again reaching to the poles. Tiles of zoom 0 and 1 take fixed boxes. From zoom 5
///   to 6 the corners are blended towards their Mercator places (smoothstep).
/// - **Culling** is the frustum's planes, then its edges' separating axes for a tile taken; no horizon
///   test: the far plane ends the view where the view's top ray meets the sphere, or at its horizon.
/// - **Splitting** always falls with distance (a globe map has draping terrain, so Mapbox's LOD is
///   on): a tile is split while it is nearer than 2^(z − its zoom) · ctcd / tileSize (× 0.502 unless
///   the zoom is rounded), scaled by the latitude's stretch and, for tiles seen at a glancing angle,
///   by Mapbox's acute-angle rule; up to zoom 5 a tile one level above the covering zoom at a latitude
///   near the centre's is split at once.
/// - **Order**: by the squared distance from the centre, in tiles of the covering zoom, to the tile's
///   centre — its y not scaled for a coarser tile (a quirk, kept) — stably. Every tile has wrap 0.
///
/// The centre's elevation is taken as 0 (a 3D terrain's height under the centre is not modelled on
/// the globe) and the view has no padding.
struct MapboxGlobeCover {
    /// The sphere's radius in the units of a tile's extent (8192), Mapbox's ECEF.
    private static let extentRadius = 8192 / (2 * Double.pi)
    /// Boxes of the tiles of zoom 0 and 1 in ECEF (Mapbox's fixed ones), by `z + 2y + x`.
    private static let lowZoomBoxes: [AxisAlignedBox] = {
        let r = extentRadius
        return [AxisAlignedBox(min: Vector3(-r, -r, -r), max: Vector3(r, r, r)),
                AxisAlignedBox(min: Vector3(-r, -r, -r), max: Vector3(0, 0, r)),
                AxisAlignedBox(min: Vector3(0, -r, -r), max: Vector3(r, 0, r)),
                AxisAlignedBox(min: Vector3(-r, 0, -r), max: Vector3(0, r, r)),
                AxisAlignedBox(min: Vector3(0, 0, -r), max: Vector3(r, r, r))]
    }()

    private let view: CoverCamera
    /// The centre in world pixels.
    private let center: (x: Double, y: Double)
    /// The centre as Mercator fractions.
    private let centerMercator: (x: Double, y: Double)
    /// How far the globe has turned to Mercator: smoothstep(5, 6, zoom).
    private let mercatorBlend: Double
    /// Mapbox's `_pixelsPerMercatorPixel`: the globe's scale at the centre against Mercator's.
    private let pixelsPerMercatorPixel: Double
    /// The distance from the camera to the centre in pixels, scaled by `pixelsPerMercatorPixel`.
    private let cameraToCenterDistance: Double
    /// cos 45° / cos(centre latitude): `_mercatorScaleRatio`.
    private let mercatorScaleRatio: Double
    /// The camera in world pixels.
    private let cameraPoint: Vector3
    private let inverseViewProjection: Matrix4
    /// ECEF to world pixels (`calculateGlobeMatrix`).
    private let globeMatrix: Matrix4

    /// The globe's cover of the view of `view`.
    init(camera view: CoverCamera) {
        self.view = view
        let worldSize = view.worldSize
        let latitude = view.latitude
        centerMercator = (GLJSMercator.x(longitude: view.longitude), GLJSMercator.y(latitude: latitude))
        center = (centerMercator.x * worldSize, centerMercator.y * worldSize)
        mercatorBlend = Self.smoothstep(5, 6, view.zoom)
        let shift = log2(min(1024, max(view.width, view.height)) / 1024)
        let globeness = Self.smoothstep(3 + shift, 5 + shift, view.zoom)
        pixelsPerMercatorPixel = (worldSize / GLJSMercator.earthCircumference)
            / Self.lerp(worldSize / Self.circumference(atLatitude: 45), worldSize / Self.circumference(atLatitude: latitude), globeness)
        cameraToCenterDistance = 0.5 / tan(view.fieldOfView / 2) * view.height * pixelsPerMercatorPixel
        mercatorScaleRatio = (1 / Self.circumference(atLatitude: latitude)) / (1 / Self.circumference(atLatitude: 45))

        let (pitch, bearing) = (view.pitchRadians, GLJSMercator.radians(view.bearing))
        let forward = Vector3(sin(pitch) * sin(bearing), -sin(pitch) * cos(bearing), -cos(pitch))
        let up = Vector3(cos(pitch) * sin(bearing), -cos(pitch) * cos(bearing), sin(pitch))
        let right = Vector3(cos(bearing), sin(bearing), 0)
        let camera = Vector3(center.x, center.y, 0) - forward * cameraToCenterDistance
        cameraPoint = camera
        let viewMatrix = Matrix4(m: [right.x, up.x, -forward.x, 0, right.y, up.y, -forward.y, 0, right.z, up.z, -forward.z, 0,
                                     -right.dot(camera), -up.dot(camera), forward.dot(camera), 1])
        let far = Self.farPlane(view: view, forward: forward, up: up, right: right, cameraToCenterDistance: cameraToCenterDistance,
                                mercatorBlend: mercatorBlend)
        let projection = Matrix4.perspective(fieldOfView: view.fieldOfView, aspect: view.width / view.height, near: view.height / 50, far: far)
        inverseViewProjection = projection.multiplied(by: viewMatrix).inverted ?? .identity
        globeMatrix = Matrix4.identity.translated(center.x, center.y, -worldSize / (2 * Double.pi))
            .scaled(worldSize / 8192, worldSize / 8192, worldSize / 8192)
            .rotatedX(GLJSMercator.radians(-latitude))
            .rotatedY(GLJSMercator.radians(-view.longitude))
    }

    /// The far plane (`farthestPixelDistance` of Mapbox's globe): where the ray through the view's top
    /// corner meets the sphere, else the horizon, with 1% to spare; towards zoom 6 blended to Mercator's.
    private static func farPlane(view: CoverCamera, forward: Vector3, up: Vector3, right: Vector3, cameraToCenterDistance: Double,
                                 mercatorBlend: Double) -> Double {
        let fovAboveCenter = view.fieldOfView * 0.5
        let radius = view.worldSize / (2 * Double.pi)
        let camera = forward * -cameraToCenterDistance
        let sphereCenter = Vector3(0, 0, -radius)
        let tangent = tan(fovAboveCenter)
        let ray = (forward + up * tangent + right * (tangent * view.width / view.height)).normalized
        let offset = camera - sphereCenter
        let b = 2 * offset.dot(ray)
        let discriminant = b * b - 4 * (offset.dot(offset) - radius * radius)
        var distance: Double?
        if discriminant >= 0 {
            let t = (-b - discriminant.squareRoot()) / 2
            if t >= 0 { distance = cos(fovAboveCenter) * ((camera + ray * t) - camera).length }
        }
        if distance == nil {
            let height = offset.length - radius
            var horizon = (height * (height + 2 * radius)).squareRoot()
            let angle = acos(horizon / (radius + height)) - acos(forward.dot((sphereCenter - camera).normalized))
            horizon *= cos(angle)
            distance = horizon
        }
        let globeFar = 1.01 * (distance ?? 0)
        guard mercatorBlend > 0 else { return globeFar }
        let pitch = view.pitchRadians
        let n = camera.z / cos(pitch)
        let o = sin(fovAboveCenter) * n / sin(max(Double.pi / 2 - pitch - fovAboveCenter, 0.01))
        let mercatorFar = min(1.01 * (sin(pitch) * o + n), n / 0.1)
        return lerp(globeFar, mercatorFar + radius * (1 - cos(max(view.width, view.height) / view.worldSize * Double.pi)), pow(mercatorBlend, 10))
    }

    /// The tiles of `source` the view needs, in Mapbox GL JS's order.
    func tiles(source: CoveringTiles.SourceOptions) -> [OverscaledTileID] {
        let actualZ = CoveringTiles.coveringZoom(cameraZoom: view.zoom, source: source)
        if actualZ < source.minZoom { return [] }
        let z = min(actualZ, source.maxZoom)
        let overscaledZ = source.reparseOverscaled ? actualZ : z
        let tileCount = pow(2, Double(z))
        let scale = tileCount / view.worldSize
        let frustum = Frustum(corners: Frustum.clipCorners.map { c in
            let r = inverseViewProjection.transform(c.0, c.1, c.2, 1)
            return Vector3(r.x / r.w * scale, r.y / r.w * scale, r.z / r.w * scale)
        })
        let edgeAxes = FrustumEdgeAxes(frustum)
        let boxes = TileBoxes(cover: self, tileCount: tileCount, scale: scale)
        let camera = cameraPoint * scale
        let cameraHeight2 = camera.z * camera.z
        let splitDistance = cameraToCenterDistance / Double(source.tileSize) * (source.roundZoom ? 1 : 0.502)

        func splits(_ tile: Pending) -> Bool {
            guard tile.z != z else { return false }
            let box = tile.box
            let dx = box.distanceX(from: camera.x), dy = box.distanceY(from: camera.y), dz = box.distanceZ(from: camera.z)
            let dz2 = dz * dz
            let tiles = pow(2, Double(tile.z))
            let south = Self.latitude(y: Double(tile.y + 1) / tiles), north = Self.latitude(y: Double(tile.y) / tiles)
            let nearest = min(max(view.latitude, south), north)
            let stretch = Self.circumference(atLatitude: nearest) / Self.circumference(atLatitude: view.latitude)
            let adjustment = nearest == view.latitude ? 1 / max(1, mercatorScaleRatio - 0.3) : min(1, stretch / mercatorScaleRatio)
            if view.zoom <= 5 && tile.z == z - 1 && stretch >= 0.9 { return true }
            let d2 = dx * dx + dy * dy + dz2
            let threshold = pow(2, Double(z - tile.z)) * splitDistance * adjustment * Self.acuteAngleScale(max(dz2, cameraHeight2), d2)
            return d2 < threshold * threshold
        }

        var found: [(tile: OverscaledTileID, distance: Double)] = []
        var stack = [Pending(z: 0, x: 0, y: 0, box: boxes.box(z: 0, x: 0, y: 0, toPole: false), fullyVisible: false)]
        while let tile = stack.popLast() {
            var fullyVisible = tile.fullyVisible
            let edgeRow = tile.y == 0 || tile.y == (1 << tile.z) - 1
            if !fullyVisible {
                var seen = tile.box.intersection(with: frustum)
                if seen == .outside && edgeRow { seen = boxes.box(z: tile.z, x: tile.x, y: tile.y, toPole: true).intersection(with: frustum) }
                if seen == .outside { continue }
                fullyVisible = seen == .inside
            }
            if splits(tile) {
                for i in 0..<4 {
                    let (x, y) = (tile.x * 2 + i % 2, tile.y * 2 + i / 2)
                    stack.append(Pending(z: tile.z + 1, x: x, y: y, box: boxes.box(z: tile.z + 1, x: x, y: y, toPole: false), fullyVisible: fullyVisible))
                }
                continue
            }
            let targetZ = tile.z == z ? overscaledZ : tile.z
            if source.minZoom > targetZ { continue }
            if !fullyVisible && !Self.isSeen(tile.box, frustum, edgeAxes)
                && !(edgeRow && Self.isSeen(boxes.box(z: tile.z, x: tile.x, y: tile.y, toPole: true), frustum, edgeAxes)) {
                continue
            }
            let dx = centerMercator.x * tileCount - (0.5 + Double(tile.x)) * pow(2, Double(z - tile.z))
            let dy = centerMercator.y * tileCount - 0.5 - Double(tile.y)
            found.append((OverscaledTileID(overscaledZ: targetZ, wrap: 0, canonical: CanonicalTileID(z: tile.z, x: tile.x, y: tile.y)), dx * dx + dy * dy))
        }
        return found.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }.map(\.element.tile)
    }

    /// A tile waiting in the walk.
    private struct Pending {
        var z: Int
        var x: Int
        var y: Int
        var box: AxisAlignedBox
        var fullyVisible: Bool
    }

    /// `intersectsPrecise`: not outside the frustum's planes, and apart on none of its edges' axes.
    private static func isSeen(_ box: AxisAlignedBox, _ frustum: Frustum, _ axes: FrustumEdgeAxes) -> Bool {
        box.intersection(with: frustum) != .outside && !axes.separates(box.corners)
    }

    /// The boxes of tiles on the globe, in tile units of the covering zoom.
    private struct TileBoxes {
        let cover: MapboxGlobeCover
        let tileCount: Double
        let scale: Double

        /// A point of the sphere (ECEF) in tile units.
        func place(_ p: Vector3) -> Vector3 {
            let r = cover.globeMatrix.transform(p.x, p.y, p.z, 1)
            return Vector3(r.x * scale, r.y * scale, r.z * scale)
        }

        /// The point at `latitude`, `longitude` in tile units.
        func place(latitude: Double, longitude: Double) -> Vector3 {
            let (phi, lambda) = (GLJSMercator.radians(latitude), GLJSMercator.radians(longitude))
            let r = MapboxGlobeCover.extentRadius
            return place(Vector3(cos(phi) * sin(lambda) * r, -sin(phi) * r, cos(phi) * cos(lambda) * r))
        }

        /// The box of tile `z/x/y`; `toPole` reaches a top row to the north pole and a bottom one to the south.
        func box(z: Int, x: Int, y: Int, toPole: Bool) -> AxisAlignedBox {
            if z <= 1 { return AxisAlignedBox(enclosing: MapboxGlobeCover.lowZoomBoxes[z + 2 * y + x].corners.map(place)) }
            let view = cover.view
            let n = 1 / pow(2, Double(z))
            let west = 360 * (Double(x) * n) - 180, east = 360 * (Double(x + 1) * n) - 180
            let south = toPole && y == (1 << z) - 1 ? -90 : MapboxGlobeCover.latitude(y: Double(y + 1) * n)
            let north = toPole && y == 0 ? 90 : MapboxGlobeCover.latitude(y: Double(y) * n)
            var corners = [place(latitude: south, longitude: west), place(latitude: south, longitude: east),
                           place(latitude: north, longitude: east), place(latitude: north, longitude: west)]
            if west <= view.longitude && view.longitude <= east && south <= view.latitude && view.latitude <= north {
                var box = AxisAlignedBox(enclosing: corners)
                box.max.z = 0
                return AxisAlignedBox(enclosing: [box.min, box.max, Vector3(cover.center.x * scale, cover.center.y * scale, 0)])
            }
            // The edge nearest the centre, and the centre of the circle it is an arc of.
            var dx = cover.centerMercator.x - GLJSMercator.x(longitude: (west + east) / 2)
            let clampedMiddle = min(max((south + north) / 2, -GLJSMercator.maximumLatitude), GLJSMercator.maximumLatitude)
            let dy = cover.centerMercator.y - GLJSMercator.y(latitude: clampedMiddle)
            if dx > 0.5 { dx -= 1 } else if dx < -0.5 { dx += 1 }
            let globeCenter = place(Vector3(0, 0, 0))
            let edge: Int
            var arcCenter = globeCenter
            if abs(dx) > abs(dy) {
                edge = dx >= 0 ? 1 : 3
            } else {
                edge = dy >= 0 ? 0 : 2
                let axis = place(Vector3(0, 1, 0)) - globeCenter
                arcCenter = globeCenter + axis * (-sin(GLJSMercator.radians(dy >= 0 ? south : north)) * MapboxGlobeCover.extentRadius)
            }
            var extremum = MapboxGlobeCover.arcExtremum(corners[edge], corners[(edge + 1) % 4], around: arcCenter)
            let blend = cover.mercatorBlend
            if blend > 0 {
                let mercator = mercatorCorners(z: z, x: x, y: y)
                for i in 0..<4 { corners[i] = MapboxGlobeCover.lerp(corners[i], mercator[i], blend) }
                extremum = MapboxGlobeCover.lerp(extremum, (mercator[edge] + mercator[(edge + 1) % 4]) * 0.5, blend)
            }
            var box = AxisAlignedBox(enclosing: corners)
            box.min.z = min(corners[edge].z, corners[(edge + 1) % 4].z)
            return AxisAlignedBox(enclosing: [box.min, box.max, extremum])
        }

        /// The tile's corners in Mercator (south-west, south-east, north-east, north-west), in tile
        /// units, scaled about the centre by the globe's scale there and moved to the centre's world copy.
        func mercatorCorners(z: Int, x: Int, y: Int) -> [Vector3] {
            let size = 1 / pow(2, Double(z))
            var (left, right, top, bottom) = (Double(x) * size, Double(x) * size + size, Double(y) * size, Double(y) * size + size)
            let middle = (left + right) / 2 - cover.centerMercator.x
            let wrap: Double = middle > 0.5 ? -1 : (middle < -0.5 ? 1 : 0)
            let (ox, oy) = (cover.centerMercator.x * tileCount, cover.centerMercator.y * tileCount)
            let ppmp = cover.pixelsPerMercatorPixel
            left = ((left + wrap) * tileCount - ox) * ppmp + ox
            right = ((right + wrap) * tileCount - ox) * ppmp + ox
            top = (top * tileCount - oy) * ppmp + oy
            bottom = (bottom * tileCount - oy) * ppmp + oy
            return [Vector3(left, bottom, 0), Vector3(right, bottom, 0), Vector3(right, top, 0), Vector3(left, top, 0)]
        }
    }

    /// Per axis, the extreme point of the great-circle arc from `a` to `b` about `center`, where it
    /// lies inside the arc; else `a`'s coordinate (as Mapbox's `|| a` also takes for an extremum of 0).
    private static func arcExtremum(_ a: Vector3, _ b: Vector3, around center: Vector3) -> Vector3 {
        let (p, q) = (a - center, b - center)
        let angle = acos(p.normalized.dot(q.normalized))
        func extreme(_ pa: Double, _ qb: Double, _ c: Double) -> Double? {
            guard angle != 0 else { return nil }
            let t = pa == 0 ? Double.pi / 2 / angle : atan(qb / pa / sin(angle) - 1 / tan(angle)) / angle
            guard t >= 0 && t <= 1 else { return nil }
            let value = pa * sin((1 - t) * angle) / sin(angle) + qb * sin(t * angle) / sin(angle) + c
            return value == 0 ? nil : value
        }
        return Vector3(extreme(p.x, q.x, center.x) ?? a.x, extreme(p.y, q.y, center.y) ?? a.y, extreme(p.z, q.z, center.z) ?? a.z)
    }

    /// Mapbox's stretch of the split distance for a tile seen at a glancing angle: 1 while the tile is
    /// no farther than √2 times its height below the camera, then growing more slowly than the distance.
    private static func acuteAngleScale(_ height2: Double, _ distance2: Double) -> Double {
        if distance2 * 0.707 * 0.707 < height2 { return 1 }
        let r = (distance2 / height2).squareRoot()
        return r / (1.4144271570014144 + (pow(1.1, r - 1.4144271570014144 + 1) - 1) / 0.1 - 1)
    }

    /// The latitude of Mercator y `y` (`latFromMercatorY`).
    private static func latitude(y: Double) -> Double {
        360 / Double.pi * atan(exp((180 - 360 * y) * Double.pi / 180)) - 90
    }

    /// The circumference of the Earth at `latitude`, in metres.
    private static func circumference(atLatitude latitude: Double) -> Double {
        GLJSMercator.earthCircumference * cos(latitude * Double.pi / 180)
    }

    private static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    private static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a * (1 - t) + b * t }

    private static func lerp(_ a: Vector3, _ b: Vector3, _ t: Double) -> Vector3 {
        Vector3(lerp(a.x, b.x, t), lerp(a.y, b.y, t), lerp(a.z, b.z, t))
    }
}
