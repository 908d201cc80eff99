import ArgumentParser
import MapSimKit

/// `W,S,E,N` on the command line.
struct BoundsArgument: ExpressibleByArgument {
    var value: LngLatBounds

    init?(argument: String) {
        let numbers = argument.split(separator: ",", omittingEmptySubsequences: false).map(DecimalArgument.value)
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2], let north = numbers[3],
              (-180...180).contains(west), (-180...180).contains(east), (-90...90).contains(south), (-90...90).contains(north),
              west < east, south < north else { return nil }
        value = LngLatBounds(west: west, south: south, east: east, north: north)
    }
}
