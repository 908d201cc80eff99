import Foundation

/// The zoom of each tile when a cover's zooms vary with distance (GL JS's
/// `createCalculateTileZoomFunction(9.314, 3.0)`): tiles farther from the camera than the centre get
/// lower zooms, so that about 9.3 zoom levels fit on a screen looking at the horizon and the far
/// tiles are not more than three times as many as the near ones.
struct TileZoomCurve: Sendable {
    /// The most zoom levels on one screen.
    var maximumZoomLevelsOnScreen = 9.314
    /// The most tiles at the far end of the view for each at the near end.
    var tileCountMaximumToMinimumRatio = 3.0

    /// The zoom of a tile `distance` (world fractions, along the ground) from the camera's ground
    /// point, for a camera `height` above the ground and `centerDistance` (3-D) from the centre whose
    /// zoom is `centerZoom`; `fieldOfView` in degrees.
    func zoom(centerZoom: Double, distance: Double, height: Double, centerDistance: Double, fieldOfView: Double) -> Double {
        let horizon = MercatorCoverTransform.maximumHorizonAngle
        let rad = GLJSMercator.radians
        let behaviour = 2 * ((maximumZoomLevelsOnScreen - 1)
            / Self.log2(cos(rad(horizon - fieldOfView)) / cos(rad(horizon))) - 1)
        let centerPitch = acos(height / centerDistance)
        let centerCount = 2 * Self.integralOfCosinePower(behaviour - 1, from: 0, to: rad(fieldOfView / 2))
        let highest = min(rad(horizon), centerPitch + rad(fieldOfView / 2))
        let lowest = min(highest, centerPitch - rad(fieldOfView / 2))
        let count = Self.integralOfCosinePower(behaviour - 1, from: lowest, to: highest)
        let tilePitch = atan(distance / height)
        let tileDistance = hypot(distance, height)
        var z = centerZoom
        z += Self.log2(centerDistance / tileDistance / max(0.5, cos(rad(fieldOfView / 2))))
        z += behaviour * Self.log2(cos(tilePitch)) / 2
        z -= Self.log2(max(1, count / centerCount / tileCountMaximumToMinimumRatio)) / 2
        return z
    }

    /// `log(value) / ln 2`, as GL JS's `scaleZoom`.
    static func log2(_ value: Double) -> Double { log(value) / log(2.0) }

    /// ∫ cos(x)^power dx from `a` to `b`, by the midpoint rule with 10 steps.
    private static func integralOfCosinePower(_ power: Double, from a: Double, to b: Double) -> Double {
        let steps = 10
        let dx = (b - a) / Double(steps)
        var sum = 0.0
        for i in 0..<steps {
            let x = a + (Double(i) + 0.5) / Double(steps) * (b - a)
            sum += dx * pow(cos(x), power)
        }
        return sum
    }
}
