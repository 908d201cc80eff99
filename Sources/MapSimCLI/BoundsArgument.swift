import ArgumentParser
import MapSimKit

/// `W,S,E,N` on the command line: four numbers when parsed, an area once `check(_:)` passed.
struct BoundsArgument: ExpressibleByArgument {
    var value: LngLatBounds

    init?(argument: String) {
        let numbers = argument.split(separator: ",", omittingEmptySubsequences: false).map(DecimalArgument.value)
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2], let north = numbers[3] else { return nil }
        value = LngLatBounds(west: west, south: south, east: east, north: north)
    }

    /// Refuses bounds that are no area, as a usage error of `option` that says which number is wrong
    /// and why: a latitude first (the order of `lat,lon` pairs), an area across the antimeridian.
    func check(_ option: String) throws {
        let bounds = value
        for (name, number) in [("south", bounds.south), ("north", bounds.north)] where !(-90...90).contains(number) {
            throw ValidationError("\(option): \(name) \(Self.text(number)) is not a latitude (-90 to 90); the order is west,south,east,north, longitude first")
        }
        for (name, number) in [("west", bounds.west), ("east", bounds.east)] where !(-180...180).contains(number) {
            throw ValidationError("\(option): \(name) \(Self.text(number)) is not a longitude (-180 to 180)")
        }
        guard bounds.west < bounds.east else {
            let across = bounds.west > bounds.east ? ": an area across the antimeridian (180°) is two, one on each side" : ""
            throw ValidationError("\(option): west \(Self.text(bounds.west)) is not west of east \(Self.text(bounds.east))\(across)")
        }
        guard bounds.south < bounds.north else {
            throw ValidationError("\(option): south \(Self.text(bounds.south)) is not south of north \(Self.text(bounds.north))")
        }
    }

    /// A degree as it was typed: `170`, not `170.0`.
    private static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
