/// A cubic Bézier easing curve from (0, 0) to (1, 1) with two control points, solved for y at a
/// given x as CSS timing functions are: Newton's method first, bisection when it stalls.
struct UnitBezier: Sendable {
    private let ax, bx, cx, ay, by, cy: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve's parameter at which x is `x`, to within 1e-6.
    private func solveX(_ x: Double) -> Double {
        let epsilon = 1e-6
        if x < 0 { return 0 }
        if x > 1 { return 1 }
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < epsilon { return t }
            let slope = slopeX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var low = 0.0, high = 1.0
        t = x
        for _ in 0..<20 {
            let value = sampleX(t)
            if abs(value - x) < epsilon { break }
            if x > value { low = t } else { high = t }
            t = (high - low) * 0.5 + low
        }
        return t
    }

    /// The curve's y where its x is `x`.
    func solve(_ x: Double) -> Double {
        sampleY(solveX(x))
    }
}
