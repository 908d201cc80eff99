import ArgumentParser
import MapSimKit

/// `WIDTHxHEIGHT` on the command line.
struct SizeArgument: ExpressibleByArgument {
    var width: Int
    var height: Int

    /// The sides a view may have, in logical pixels.
    static let sides = 1...16384

    /// Any `WIDTHxHEIGHT` of whole numbers: `check(_:)` says whether it is a size a view may have.
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.width = width
        self.height = height
    }

    /// Throws a message naming `option` and the range when a side is outside `sides`.
    func check(_ option: String) throws {
        guard Self.sides.contains(width), Self.sides.contains(height) else {
            throw ValidationError("\(option) must be WIDTHxHEIGHT with each side from \(Self.sides.lowerBound) to \(Self.sides.upperBound) pixels, not \(width)x\(height)")
        }
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}
