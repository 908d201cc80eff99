import Foundation
import MapSimStyle

/// Web Mercator as MapLibre GL JS computes it (`MercatorCoordinate`): world fractions 0...1, x east
/// from the antimeridian and y south from the top, z in world fractions of an altitude. Its sphere
/// and formulas differ from `WebMercator`'s in the last bits, which a cover that must match GL JS
/// tile for tile cannot ignore.
enum GLJSMercator {
    /// GL JS's Earth radius in metres.
    static let earthRadius = 6_371_008.8
    /// The Earth's circumference at the equator, in metres.
    static let earthCircumference = 2 * Double.pi * earthRadius
    /// The latitude GL JS clamps a centre to.
    static let maximumLatitude = 85.051129

    /// The world x of `longitude`.
    static func x(longitude: Double) -> Double { (180 + longitude) / 360 }

    /// The world y of `latitude`.
    static func y(latitude: Double) -> Double {
        (180 - 180 / Double.pi * log(tan(Double.pi / 4 + latitude * Double.pi / 360))) / 360
    }

    /// The location of world point (`x`, `y`).
    static func location(x: Double, y: Double) -> LngLat {
        let latitude: Double = 360 / Double.pi * atan(exp((180 - y * 360) * Double.pi / 180)) - 90
        return LngLat(longitude: x * 360 - 180, latitude: latitude)
    }

    /// The world z of `altitude` metres at `latitude`.
    static func z(altitude: Double, latitude: Double) -> Double {
        altitude / (earthCircumference * cos(latitude * Double.pi / 180))
    }

    /// `degrees` in radians, as Python's `math.radians` and GL JS's `degreesToRadians` compute it.
    static func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }
}
