import Foundation
import MapSimStyle

/// Spherical (web) mercator as map tiles use it: positions as fractions of the world, 0...1,
/// x growing east from the antimeridian and y growing south from the top of the world.
public enum WebMercator {
    /// The latitude at which the square world ends, about 85.0511°.
    public static let maximumLatitude = LngLat.maximumMercatorLatitude

    /// The radius of the sphere in metres (EPSG:3857).
    public static let earthRadius = 6_378_137.0

    /// The x of `longitude` as a fraction of the world (may leave 0...1 for longitudes past ±180).
    public static func x(longitude: Double) -> Double {
        (180 + longitude) / 360
    }

    /// The y of `latitude` as a fraction of the world; latitudes are clamped to the square world.
    public static func y(latitude: Double) -> Double {
        let clamped = min(max(latitude, -maximumLatitude), maximumLatitude)
        let radians = clamped * .pi / 180
        return (1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2
    }

    /// The longitude of a world x.
    public static func longitude(x: Double) -> Double {
        x * 360 - 180
    }

    /// The latitude of a world y.
    public static func latitude(y: Double) -> Double {
        let n = Double.pi - 2 * .pi * y
        return 180 / .pi * atan(0.5 * (exp(n) - exp(-n)))
    }

    /// The projected metres of a world position (EPSG:3857), for `{bbox-epsg-3857}`.
    public static func metres(x: Double, y: Double) -> (x: Double, y: Double) {
        let circumference = 2 * Double.pi * earthRadius
        return ((x - 0.5) * circumference, (0.5 - y) * circumference)
    }
}
