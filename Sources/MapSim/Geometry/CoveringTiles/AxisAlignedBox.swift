/// An axis-aligned box (GL JS's `Aabb`): a Mercator tile's volume — x and y in world fractions,
/// z in metres — and a frustum's bounds.
struct AxisAlignedBox: TileVolume {
    var min: Vector3
    var max: Vector3

    /// The box from `min` to `max`.
    init(min: Vector3, max: Vector3) {
        self.min = min
        self.max = max
    }

    /// The Mercator volume of tile `z/x/y` of world copy `wrap`, spanning `heights` in metres.
    init(tileZ z: Int, x: Int, y: Int, wrap: Int, heights: ClosedRange<Double>) {
        let n = Double(1 << z)
        self.init(min: Vector3(Double(wrap) + Double(x) / n, Double(y) / n, heights.lowerBound),
                  max: Vector3(Double(wrap) + Double(x + 1) / n, Double(y + 1) / n, heights.upperBound))
    }

    /// The smallest box holding `points`.
    init(enclosing points: [Vector3]) {
        var low = Vector3(.infinity, .infinity, .infinity)
        var high = Vector3(-.infinity, -.infinity, -.infinity)
        for p in points {
            low = Vector3(Swift.min(low.x, p.x), Swift.min(low.y, p.y), Swift.min(low.z, p.z))
            high = Vector3(Swift.max(high.x, p.x), Swift.max(high.y, p.y), Swift.max(high.z, p.z))
        }
        self.init(min: low, max: high)
    }

    /// Its eight corners: the bottom face, then the top.
    var corners: [Vector3] {
        [Vector3(min.x, min.y, min.z), Vector3(max.x, min.y, min.z), Vector3(max.x, max.y, min.z), Vector3(min.x, max.y, min.z),
         Vector3(min.x, min.y, max.z), Vector3(max.x, min.y, max.z), Vector3(max.x, max.y, max.z), Vector3(min.x, max.y, max.z)]
    }

    /// The signed gap along x from `x` to the box (0 inside its x range).
    func distanceX(from x: Double) -> Double { Swift.max(Swift.min(max.x, x), min.x) - x }

    /// The signed gap along y from `y` to the box (0 inside its y range).
    func distanceY(from y: Double) -> Double { Swift.max(Swift.min(max.y, y), min.y) - y }

    /// The signed gap along z from `z` to the box (0 inside its z range).
    func distanceZ(from z: Double) -> Double { Swift.max(Swift.min(max.z, z), min.z) - z }

    /// Inside when the corner nearest the plane's back is on its inside; outside when even the
    /// farthest corner is behind it.
    func intersection(with plane: Plane) -> VolumeIntersection {
        var low = plane.d
        var high = plane.d
        for (n, lo, hi) in [(plane.normal.x, min.x, max.x), (plane.normal.y, min.y, max.y), (plane.normal.z, min.z, max.z)] {
            if n > 0 {
                low += n * lo
                high += n * hi
            } else {
                high += n * lo
                low += n * hi
            }
        }
        return low >= 0 ? .inside : (high < 0 ? .outside : .partial)
    }

    /// Outside as soon as one plane leaves the box outside, inside when every plane has it inside;
    /// else outside when it misses the frustum's own bounding box, and partial when not.
    func intersection(with frustum: Frustum) -> VolumeIntersection {
        var fullyInside = true
        for plane in frustum.planes {
            switch intersection(with: plane) {
            case .outside: return .outside
            case .partial: fullyInside = false
            case .inside: break
            }
        }
        if fullyInside { return .inside }
        let bounds = frustum.bounds
        if bounds.min.x > max.x || bounds.min.y > max.y || bounds.min.z > max.z
            || bounds.max.x < min.x || bounds.max.y < min.y || bounds.max.z < min.z {
            return .outside
        }
        return .partial
    }
}
