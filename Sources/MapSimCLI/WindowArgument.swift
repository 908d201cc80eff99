import ArgumentParser
import Foundation
import MapSimKit

/// `START-END` in seconds of virtual time on the command line.
struct WindowArgument: ExpressibleByArgument {
    var value: Range<SimTime>

    init?(argument: String) {
        let parts = argument.split(separator: "-").compactMap { Double($0) }
        guard parts.count == 2, parts[0] >= 0, parts[0] < parts[1] else { return nil }
        value = SimTime.seconds(parts[0])..<SimTime.seconds(parts[1])
    }
}
