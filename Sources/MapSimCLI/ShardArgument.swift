import ArgumentParser
import Foundation
import MapSimKit

/// `I/N` on the command line.
struct ShardArgument: ExpressibleByArgument {
    var index: Int
    var count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else { return nil }
        index = parts[0]
        count = parts[1]
    }

    /// The paths of this share: every N-th of the sorted paths, from the I-th.
    func select(_ paths: [String]) -> [String] {
        paths.sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
