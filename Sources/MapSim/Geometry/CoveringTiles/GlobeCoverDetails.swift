import Foundation

/// The globe's tiles (`GlobeCoveringTilesDetailsProvider`): boxes on the unit sphere (axis-aligned
/// for zooms 0 and 1, oriented from zoom 2), Chebyshev distances the short way round the
/// antimeridian and over the poles, the world copy nearest the centre, no world copies traversed.
struct GlobeCoverDetails: CoverDetailsProvider {
    let allowsWorldCopies = false

    /// A tile's extent in GL JS's tile units.
    private static let extent = 8192.0

    /// Variable zoom once the source's covering zoom passes 4.
    func allowsVariableZoom(camera: CoverCamera, coveringZoom: Int, terrain: CoverTerrain?) -> Bool {
        coveringZoom > 4
    }

    func volume(z: Int, x: Int, y: Int, wrap: Int, elevation: Double, terrain: CoverTerrain?) -> OrientedBox {
        let range = CoverTerrain.elevationRange(of: terrain, z: z, x: x, y: y, elevation: elevation)
        let low = range.lowerBound / GLJSMercator.earthRadius + 1
        let high = range.upperBound / GLJSMercator.earthRadius + 1
        if z <= 0 {
            return OrientedBox(min: Vector3(-high, -high, -high), max: Vector3(high, high, high))
        }
        if z == 1 {
            return OrientedBox(min: Vector3(x == 0 ? -high : 0, y == 0 ? 0 : -high, -high),
                               max: Vector3(x == 0 ? 0 : high, y == 0 ? high : 0, high))
        }
        return Self.orientedVolume(z: z, x: x, y: y, low: low, high: high)
    }

    /// The oriented box of a tile from zoom 2: its four corners on the sphere at both radii, the
    /// pole on a first or last row, the centre and the midpoint of the edge nearer the equator;
    /// bounded along the centre's direction and the north direction, and by the two meridian planes.
    private static func orientedVolume(z: Int, x: Int, y: Int, low: Double, high: Double) -> OrientedBox {
        let e = extent
        let corners = [point(0, 0, x, y, z), point(e, 0, x, y, z), point(e, e, x, y, z), point(0, e, x, y, z)]
        var points = corners.map { $0 * high }
        if high != low { points += corners.map { $0 * low } }
        let last = (1 << z) - 1
        if y == 0 { points.append(Vector3(0, 1, 0)) }
        if y == last { points.append(Vector3(0, -1, 0)) }
        let center = point(e / 2, e / 2, x, y, z)
        let east = Vector3(0, 1, 0).cross(center).normalized
        let north = center.cross(east).normalized
        let eastSide = corners[2].cross(corners[1]).normalized
        let westSide = corners[0].cross(corners[3]).normalized
        points.append(center * high)
        let half = Double(1 << z) / 2
        if Double(y) >= half { points.append(point(e / 2, 0, x, y, z) * high) }
        if Double(y) < half { points.append(point(e / 2, e, x, y, z) * high) }

        let along = points.map { center.dot($0) }
        let across = points.map { north.dot($0) }
        let top = Plane(Vector3(-center.x, -center.y, -center.z), along.max()!)
        let bottom = Plane(center, -along.min()!)
        let northPlane = Plane(Vector3(-north.x, -north.y, -north.z), across.max()!)
        let southPlane = Plane(north, -across.min()!)
        let eastPlane = Plane(eastSide, 0)
        let westPlane = Plane(westSide, 0)
        var triples: [(Plane, Plane, Plane)] = []
        if y == 0 {
            triples += [(westPlane, eastPlane, top), (westPlane, eastPlane, bottom)]
        } else {
            triples += [(northPlane, eastPlane, top), (northPlane, eastPlane, bottom), (northPlane, westPlane, top), (northPlane, westPlane, bottom)]
        }
        if y == last {
            triples += [(westPlane, eastPlane, top), (westPlane, eastPlane, bottom)]
        } else {
            triples += [(southPlane, eastPlane, top), (southPlane, eastPlane, bottom), (southPlane, westPlane, top), (southPlane, westPlane, bottom)]
        }
        // Three of these planes never are parallel; a degenerate corner would be left out.
        let boxPoints = triples.compactMap { Plane.intersection($0.0, $0.1, $0.2) }
        return OrientedBox(points: boxPoints, planes: [top, bottom, northPlane, southPlane, eastPlane, westPlane])
    }

    /// The unit-sphere point of the tile-local position `(inX, inY)` (in tile units) of tile `z/x/y`.
    private static func point(_ inX: Double, _ inY: Double, _ x: Int, _ y: Int, _ z: Int) -> Vector3 {
        let s = 1 / Double(1 << z)
        let my = inY / extent * s + Double(y) * s
        let longitude = ((inX / extent * s + Double(x) * s) * Double.pi * 2 + Double.pi).truncatingRemainder(dividingBy: 2 * Double.pi)
        let latitude = 2 * atan(exp(Double.pi - my * Double.pi * 2)) - 0.5 * Double.pi
        let c = cos(latitude)
        return Vector3(sin(longitude) * c, sin(latitude), cos(longitude) * c)
    }

    /// The Chebyshev distance, capped at 2, from `(x, y)` to the tile, to its reflection over the
    /// north pole and to its reflection over the south pole, the x gap taken the short way round.
    func distance(fromX x: Double, y: Double, toTileZ z: Int, x tileX: Int, y tileY: Int, volume: OrientedBox) -> Double {
        let n = Double(1 << z)
        let size = 1 / n
        let tx = Double(tileX) / n
        let ty = Double(tileY) / n
        var d = 2.0
        d = min(d, Self.wrappedDistance(x, y, tx, ty, size))
        d = min(d, Self.wrappedDistance(x, y, tx + 0.5, -ty - size, size))
        d = min(d, Self.wrappedDistance(x, y, tx + 0.5, 2 - ty - size, size))
        return d
    }

    /// The copy of the tile — itself, one world west or one east — nearest to the centre along x.
    func wrap(center: Vector3, z: Int, x: Int, wrap: Int) -> Int {
        let n = Double(1 << z)
        let size = 1 / n
        let tx = Double(x) / n
        let here = Self.distance1D(center.x, tx, size)
        let west = Self.distance1D(center.x, tx - 1, size)
        let east = Self.distance1D(center.x, tx + 1, size)
        let nearest = min(here, west, east)
        return nearest == east ? 1 : (nearest == west ? -1 : 0)
    }

    private static func distance1D(_ p: Double, _ t: Double, _ size: Double) -> Double {
        let o = p - t
        return o < 0 ? -o : max(0, o - size)
    }

    private static func wrappedDistance(_ px: Double, _ py: Double, _ tx: Double, _ ty: Double, _ size: Double) -> Double {
        let r = px - tx
        let dx: Double
        if r < 0 {
            dx = min(-r, 1 + r - size)
        } else if r > size {
            dx = min(max(r - size, 0), 1 - r)
        } else {
            dx = 0
        }
        return max(dx, distance1D(py, ty, size))
    }
}
