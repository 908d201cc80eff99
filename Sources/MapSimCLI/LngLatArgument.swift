import ArgumentParser
import MapSimKit

/// `LON,LAT` on the command line.
struct LngLatArgument: ExpressibleByArgument {
    var value: LngLat

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lon = DecimalArgument.value(parts[0]), let lat = DecimalArgument.value(parts[1]) else { return nil }
        value = LngLat(longitude: lon, latitude: lat)
    }

    static var defaultValueDescription: String { "LON,LAT" }
}

extension Map.State: ExpressibleByArgument {}
