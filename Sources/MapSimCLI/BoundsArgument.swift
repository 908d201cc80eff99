import ArgumentParser
import Foundation
import MapSimKit

/// `W,S,E,N` on the command line.
struct BoundsArgument: ExpressibleByArgument {
    var value: LngLatBounds

    init?(argument: String) {
        let numbers = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, (-180...180).contains(numbers[0]), (-180...180).contains(numbers[2]),
              (-90...90).contains(numbers[1]), (-90...90).contains(numbers[3]), numbers[0] < numbers[2], numbers[1] < numbers[3] else { return nil }
        value = LngLatBounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
    }
}
